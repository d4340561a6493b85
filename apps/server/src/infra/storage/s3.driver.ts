import { S3Client, PutObjectCommand, GetObjectCommand, HeadObjectCommand, DeleteObjectCommand, CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { StorageDriver } from './storage.types.ts';
import { assertSafeKey } from './storage-keys.ts';
import { attachmentDisposition } from './content-disposition.ts';

export interface S3Options {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * S3-compatible storage. Direct uploads (call style 6) get a presigned PUT whose signature covers the
 * `x-oss-meta-md5` header, so the browser must send exactly the MD5 it declared.
 */
export function createS3Storage(o: S3Options): StorageDriver & { ensureBucket(): Promise<void>; md5Of(key: string): Promise<string>; client: S3Client } {
  const client = new S3Client({
    endpoint: o.endpoint,
    region: o.region,
    forcePathStyle: o.forcePathStyle,
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
    // without these the SDK frames streamed bodies as aws-chunked, which S3-compatible servers store verbatim
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = o.bucket;

  return {
    name: 's3',
    client,
    async ensureBucket() {
      await client.send(new CreateBucketCommand({ Bucket })).catch((e) => {
        if (!/BucketAlready(OwnedByYou|Exists)/.test(e?.name ?? '')) throw e;
      });
    },
    async put(key, body, opts) {
      assertSafeKey(key);
      // S3 PUT is atomic: the object appears whole or not at all. Streams need a known length.
      let payload: Buffer | Readable = body;
      let length = opts?.size;
      if (!Buffer.isBuffer(body) && length === undefined) {
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(Buffer.from(c));
        payload = Buffer.concat(chunks);
        length = payload.length;
      }
      // a failing source stream aborts the request, so the server never completes a partial object
      const abort = new AbortController();
      let sourceError: unknown;
      if (!Buffer.isBuffer(payload)) {
        payload.once('error', (e) => {
          sourceError = e;
          abort.abort();
        });
      }
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: payload, ContentLength: Buffer.isBuffer(payload) ? payload.length : length, ContentType: opts?.contentType }), { abortSignal: abort.signal });
      } catch (e) {
        throw sourceError ?? e;
      }
    },
    async importFile(key, localPath) {
      const { createReadStream, promises: fsp } = await import('node:fs');
      const { size } = await fsp.stat(localPath);
      await this.put(key, createReadStream(localPath), { size });
      await fsp.rm(localPath, { force: true });
    },
    async get(key, range) {
      assertSafeKey(key);
      const r = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined }));
      return r.Body as Readable;
    },
    async exists(key) {
      return (await this.size(key)) !== null;
    },
    async size(key) {
      assertSafeKey(key);
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return r.ContentLength ?? 0;
      } catch (e: any) {
        if (e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound') return null;
        throw e;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const c of r.Contents ?? []) if (c.Key) yield { key: c.Key, size: c.Size ?? 0, modifiedAt: c.LastModified?.getTime() ?? 0 };
        ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async signedGetUrl(key, opts) {
      assertSafeKey(key);
      const disposition = opts.downloadName ? attachmentDisposition(opts.downloadName) : undefined;
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: disposition }), { expiresIn: opts.expiresInSeconds });
    },
    async signedPutUrl(key, opts) {
      assertSafeKey(key);
      const contentMd5 = Buffer.from(opts.md5Hex, 'hex').toString('base64');
      const headers = { 'x-oss-meta-md5': opts.md5Hex, 'content-md5': contentMd5 };
      const cmd = new PutObjectCommand({ Bucket, Key: key, ContentLength: opts.size, ContentMD5: contentMd5 });
      // Both headers go into the signature (call style 6): the browser must send exactly the MD5 it declared,
      // and Content-MD5 makes the server itself refuse a body whose bytes do not match it.
      cmd.middlewareStack.add(
        (next) => async (args: any) => {
          Object.assign(args.request.headers, headers);
          return next(args);
        },
        { step: 'build', name: 'addMd5Headers' },
      );
      const url = await getSignedUrl(client, cmd, { expiresIn: opts.expiresInSeconds, signableHeaders: new Set(Object.keys(headers)), unhoistableHeaders: new Set(Object.keys(headers)) });
      return { url, headers };
    },
    /** ETag of a single-part PUT is the hex MD5 of the bytes. */
    async md5Of(key: string) {
      const r = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return (r.ETag ?? '').replace(/"/g, '').toLowerCase();
    },
  };
}
