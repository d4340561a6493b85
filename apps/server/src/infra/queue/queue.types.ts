/**
 * Background jobs: one interface, a durable database-backed driver (default) and BullMQ on Redis.
 * Job names follow `area.case` (`trash.sweep`, `zip.build`). A job id given by the caller makes
 * enqueueing idempotent: a second enqueue with the same id while the first is pending is ignored.
 */
export interface JobContext {
  id: string;
  name: string;
  attempt: number;
  /** Report progress 0..100; stored so a UI can poll it. */
  progress(pct: number): Promise<void>;
}

export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<unknown>;

export interface EnqueueOptions {
  jobId?: string;
  delayMs?: number;
  attempts?: number;
}

export interface JobQueue {
  readonly name: 'db' | 'bullmq';
  register<P>(name: string, handler: JobHandler<P>): void;
  enqueue<P>(name: string, payload: P, opts?: EnqueueOptions): Promise<string>;
  /** Repeat a job every `everyMs` (the trash sweep); idempotent across restarts. */
  schedule(name: string, everyMs: number): Promise<void>;
  /** Start processing registered handlers (workers). */
  start(): Promise<void>;
  /** Stop taking new jobs and wait for running ones. */
  stop(): Promise<void>;
  status(jobId: string): Promise<{ state: 'waiting' | 'active' | 'completed' | 'failed' | 'unknown'; progress: number; error?: string; result?: unknown }>;
  /** Operators (`admin jobs list`): the latest jobs, newest first, of one state or all. */
  list(o?: { state?: JobState; limit?: number }): Promise<JobSummary[]>;
  /** A failed job runs again with its attempts started over; false when there is no failed job of that id. */
  retry(jobId: string): Promise<boolean>;
  /** A job that has not started (or failed) is removed; false for a running, finished or unknown one. */
  cancel(jobId: string): Promise<boolean>;
  /** How many jobs are in each state (`admin stats`, the metrics' queue depth). */
  counts(): Promise<Record<JobState, number>>;
}

export type JobState = 'waiting' | 'active' | 'completed' | 'failed';
export const JOB_STATES: readonly JobState[] = ['waiting', 'active', 'completed', 'failed'];

export interface JobSummary {
  id: string;
  name: string;
  state: JobState;
  attempts: number;
  progress: number;
  error?: string;
  createdAt: number;
  updatedAt: number;
}
