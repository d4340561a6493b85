import SparkMD5 from 'spark-md5';
import type { PossessionChallenge, PossessionProof } from '@cadcloud/contracts';

/**
 * The proof of possession instant upload asks for bytes stored for someone else (contracts transfer.ts): MD5 of
 * the nonce, then the asked ranges of the local file, read with File.slice (a few KB, never the whole file).
 */
export async function proveRanges(file: Blob, c: PossessionChallenge): Promise<string> {
  const spark = new SparkMD5.ArrayBuffer();
  spark.append(new TextEncoder().encode(c.nonce).buffer as ArrayBuffer);
  for (const r of c.ranges) {
    const bytes = await file.slice(r.start, r.start + r.length).arrayBuffer();
    if (bytes.byteLength !== r.length) throw new Error('range beyond the file');
    spark.append(bytes);
  }
  return spark.end();
}

export interface InstantAnswer {
  exists: boolean;
  possession?: PossessionChallenge;
}

/**
 * Instant upload: ask with the MD5; when the server answers with a challenge, answer it from the local file and ask
 * again. True when the file was placed without sending its bytes, else false (the caller uploads them). A challenge
 * says nothing about whether the bytes are stored, so a failed proof is simply an ordinary upload.
 */
export async function tryInstant(file: Blob, ask: (possession?: PossessionProof) => Promise<InstantAnswer>): Promise<boolean> {
  const first = await ask();
  if (first.exists) return true;
  if (!first.possession) return false;
  let proof: string;
  try {
    proof = await proveRanges(file, first.possession);
  } catch {
    return false;
  }
  return (await ask({ token: first.possession.token, proof })).exists;
}
