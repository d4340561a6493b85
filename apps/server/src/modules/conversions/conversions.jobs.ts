import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { drawingFonts } from '../drawings/drawing-fonts.ts';
import { sharedConversionRunner } from './conversion-runner.ts';
import { createConversionsService, CONVERSION_RUN_JOB, CONVERSION_SWEEP_JOB } from './conversions.service.ts';

/**
 * conversion.run: one conversion in the capped worker. The job is durable (database table or BullMQ): a process killed
 * mid-conversion leaves the job to be taken again after its lease, and the conversion resumes (or, killed on its last
 * attempt, ends as failed): never stuck "converting".
 */
export function registerConversionJobs(queue: JobQueue, deps: AppDeps) {
  const conversions = createConversionsService(deps, sharedConversionRunner(deps), drawingFonts(deps));
  queue.register<{ conversionId: string }>(CONVERSION_RUN_JOB, (p, ctx) => conversions.run(p.conversionId, ctx));
  queue.register(CONVERSION_SWEEP_JOB, async () => ({ ended: await conversions.sweepStranded() }));
}

/** how often stranded conversions are looked for */
export const CONVERSION_SWEEP_EVERY_MS = 5 * 60_000;
