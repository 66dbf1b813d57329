import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { config } from '../config';

/**
 * Files the platform keeps (session audio), behind one small interface: the local disk under `OBJECT_STORAGE_DIR`
 * by default, any S3-compatible store (the cloud, MinIO, Ceph) with `OBJECT_STORAGE=s3`. Bodies are streamed through
 * in both directions: a file is never held whole in memory. Writing counts the bytes (refusing past `maxBytes`) and
 * computes the SHA-256 on the way, so the checksum kept is the one of the bytes stored.
 *
 * It lives in shared/ because the REST adapter streams upload bodies into it (rest-adapter/upload.ts) and the
 * subgraph reads them back (transcription) and checks what was stored.
 */
export interface StoredObject {
  size: number;
  /** Lowercase hex SHA-256 of the bytes stored. */
  sha256: string;
}

export interface ObjectStorage {
  readonly name: 'local' | 's3';
  /** Streams `body` to `key`; rejects with ObjectTooLarge past `maxBytes` (nothing is kept then). */
  put(key: string, body: Readable, opts: { contentType: string; maxBytes: number }): Promise<StoredObject>;
  /** The size of what is stored at `key`, or null when nothing is. */
  stat(key: string): Promise<{ size: number } | null>;
  /** A stream of the bytes stored at `key` (rejects when there are none). */
  read(key: string): Promise<Readable>;
  /** Removes `key`; nothing there is fine. */
  remove(key: string): Promise<void>;
}

/** The body went past the size allowed; the upload was abandoned and nothing was kept. */
export class ObjectTooLarge extends Error {
  override name = 'ObjectTooLarge';
  constructor(readonly maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes`);
  }
}

/** Keys are made by the platform (`recordings/<uuid>/<uuid>`): letters, digits and `/_.-`, no `..`, never absolute. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9/_.-]{0,500}$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Counts and hashes what passes through; errors with ObjectTooLarge once past `maxBytes`. */
export class Meter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new ObjectTooLarge(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): StoredObject {
    return { size: this.size, sha256: this.hash.digest('hex') };
  }
}

/**
 * `body` piped through a Meter. The body is not destroyed when the meter fails (too large): the caller still answers
 * on its connection. A body that errors or closes before its end (the client went away) fails the meter.
 */
function metered(body: Readable, maxBytes: number): Meter {
  const meter = new Meter(maxBytes);
  const fail = (err?: Error) => {
    if (!body.readableEnded) meter.destroy(err ?? new Error('the upload stopped before its end'));
  };
  body.once('error', fail);
  body.once('close', () => fail());
  body.pipe(meter);
  return meter;
}

/** The local disk: `<dir>/<key>`, written to a temporary file and renamed into place once complete. */
export class LocalObjectStorage implements ObjectStorage {
  readonly name = 'local' as const;
  private readonly root: string;

  constructor(dir: string) {
    this.root = isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
  }

  private pathOf(key: string): string {
    const path = join(this.root, checkKey(key));
    if (!path.startsWith(this.root + sep)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return path;
  }

  async put(key: string, body: Readable, opts: { contentType: string; maxBytes: number }): Promise<StoredObject> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomUUID()}.part`;
    const meter = metered(body, opts.maxBytes);
    try {
      await pipeline(meter, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
      return meter.digest();
    } catch (err) {
      body.unpipe(meter);
      await rm(partial, { force: true });
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async read(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    await stat(path);
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * An S3-compatible store through the AWS SDK v3; uploads go through lib-storage's multipart `Upload`, which sends
 * parts as the stream delivers them. Checksums are computed by the SDK only where the API requires them, as MinIO
 * and Ceph expect.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly name = 's3' as const;
  private client?: Promise<{ s3: S3Module; client: InstanceType<S3Module['S3Client']> }>;

  constructor(
    private readonly options: {
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      accessKeyId?: string;
      secretAccessKey?: string;
    },
  ) {}

  private connect() {
    this.client ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: this.options.region,
        endpoint: this.options.endpoint,
        forcePathStyle: this.options.forcePathStyle,
        credentials:
          this.options.accessKeyId && this.options.secretAccessKey
            ? { accessKeyId: this.options.accessKeyId, secretAccessKey: this.options.secretAccessKey }
            : undefined,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.client;
  }

  async put(key: string, body: Readable, opts: { contentType: string; maxBytes: number }): Promise<StoredObject> {
    const { client } = await this.connect();
    const { Upload } = await import('@aws-sdk/lib-storage');
    const meter = metered(body, opts.maxBytes);
    const upload = new Upload({
      client,
      params: { Bucket: this.options.bucket, Key: checkKey(key), Body: meter, ContentType: opts.contentType },
      queueSize: 2,
      leavePartsOnError: false,
    });
    // The meter's own error (too large, the client went away) must stop the upload, not only the stream.
    const failed = new Promise<never>((_, reject) => meter.once('error', reject));
    try {
      await Promise.race([upload.done(), failed]);
      return meter.digest();
    } catch (err) {
      body.unpipe(meter);
      await upload.abort().catch(() => undefined);
      await this.remove(key).catch(() => undefined);
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { s3, client } = await this.connect();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: this.options.bucket, Key: checkKey(key) }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async read(key: string): Promise<Readable> {
    const { s3, client } = await this.connect();
    const got = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: checkKey(key) }));
    const body = got.Body;
    if (!body) throw new Error(`no body for ${key}`);
    return body instanceof Readable
      ? body
      : Readable.fromWeb((body as { transformToWebStream(): ReadableStream }).transformToWebStream() as never);
  }

  async remove(key: string): Promise<void> {
    const { s3, client } = await this.connect();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.options.bucket, Key: checkKey(key) }));
  }
}

let current: { signature: string; storage: ObjectStorage } | undefined;

/** The storage the configuration names (one instance per configuration). */
export function objectStorage(): ObjectStorage {
  const cfg = config();
  const signature = JSON.stringify([
    cfg.OBJECT_STORAGE,
    cfg.OBJECT_STORAGE_DIR,
    cfg.S3_BUCKET,
    cfg.S3_ENDPOINT,
    cfg.S3_REGION,
    cfg.S3_ACCESS_KEY_ID,
  ]);
  if (current?.signature === signature) return current.storage;
  let storage: ObjectStorage;
  if (cfg.OBJECT_STORAGE === 's3') {
    if (!cfg.S3_BUCKET) throw new Error('OBJECT_STORAGE=s3 needs S3_BUCKET');
    storage = new S3ObjectStorage({
      bucket: cfg.S3_BUCKET,
      region: cfg.S3_REGION,
      endpoint: cfg.S3_ENDPOINT,
      forcePathStyle: cfg.S3_FORCE_PATH_STYLE,
      accessKeyId: cfg.S3_ACCESS_KEY_ID,
      secretAccessKey: cfg.S3_SECRET_ACCESS_KEY,
    });
  } else {
    storage = new LocalObjectStorage(cfg.OBJECT_STORAGE_DIR);
  }
  current = { signature, storage };
  return storage;
}
