import SparkMD5 from 'spark-md5';

/** Incremental MD5 of a File in 4 MB slices, so a large drawing never sits in memory whole. */
export async function md5OfFile(file: Blob, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  const slice = 4 * 1024 * 1024;
  const spark = new SparkMD5.ArrayBuffer();
  for (let offset = 0; offset < file.size; offset += slice) {
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    spark.append(await file.slice(offset, offset + slice).arrayBuffer());
    onProgress?.(Math.min(1, (offset + slice) / file.size));
  }
  return spark.end();
}
