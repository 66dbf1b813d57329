import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { checkKey, LocalObjectStorage, ObjectTooLarge, S3ObjectStorage, type ObjectStorage } from './object-storage';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const chunked = (b: Buffer, size = 1000) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
    })(),
  );
const readAll = async (r: Readable) => {
  const parts: Buffer[] = [];
  for await (const p of r) parts.push(p as Buffer);
  return Buffer.concat(parts);
};

/** An S3-compatible store on loopback (path-style PUT, HEAD, GET, DELETE), enough for one-part uploads. */
function fakeS3(): Promise<{ server: Server; url: string; objects: Map<string, Buffer> }> {
  const objects = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (req.method === 'PUT') {
      objects.set(key, await readAll(req));
      return res.writeHead(200, { etag: '"e"' }).end();
    }
    const body = objects.get(key);
    if (req.method === 'DELETE') {
      objects.delete(key);
      return res.writeHead(204).end();
    }
    if (!body)
      return res
        .writeHead(404, { 'content-type': 'application/xml' })
        .end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>');
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'audio/wav' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, objects })),
  );
}

function behavesLikeStorage(name: string, make: () => ObjectStorage) {
  describe(name, () => {
    it('stores a stream, reports its size and SHA-256, reads it back, removes it', async () => {
      const storage = make();
      const bytes = Buffer.alloc(12_345, 'x');
      expect(await storage.put('recordings/a/b', chunked(bytes), { contentType: 'audio/wav', maxBytes: 20_000 })).toEqual({
        size: 12_345,
        sha256: sha256(bytes),
      });
      expect(await storage.stat('recordings/a/b')).toEqual({ size: 12_345 });
      expect(sha256(await readAll(await storage.read('recordings/a/b')))).toBe(sha256(bytes));
      await storage.remove('recordings/a/b');
      expect(await storage.stat('recordings/a/b')).toBeNull();
      await storage.remove('recordings/a/b');
    });

    it('refuses a stream past the limit and keeps nothing', async () => {
      const storage = make();
      const source = chunked(Buffer.alloc(200_000, 'y'));
      await expect(storage.put('recordings/a/c', source, { contentType: 'audio/wav', maxBytes: 4096 })).rejects.toBeInstanceOf(
        ObjectTooLarge,
      );
      expect(await storage.stat('recordings/a/c')).toBeNull();
      // The source is left to the caller (it answers on the same connection), not destroyed.
      expect(source.destroyed).toBe(false);
    });

    it('refuses keys that are not its own', async () => {
      const storage = make();
      for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'a b']) {
        await expect(storage.put(key, chunked(Buffer.alloc(1)), { contentType: 'audio/wav', maxBytes: 10 })).rejects.toThrow(
          /not a storage key/,
        );
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'ccp-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
behavesLikeStorage('local object storage', () => new LocalObjectStorage(dir));

let s3: Awaited<ReturnType<typeof fakeS3>>;
beforeAll(async () => {
  s3 = await fakeS3();
});
afterAll(() => new Promise<void>((r) => s3.server.close(() => r())));
behavesLikeStorage(
  'S3-compatible object storage',
  () =>
    new S3ObjectStorage({
      bucket: 'audio',
      region: 'us-east-1',
      endpoint: s3.url,
      forcePathStyle: true,
      accessKeyId: 'test',
      secretAccessKey: 'test-secret',
    }),
);

it('leaves no partial files behind on the local disk', () => {
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [e.name]));
  expect(files(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
});

it('accepts the keys the platform makes', () => {
  expect(checkKey('recordings/2f1c/9a8b-1')).toBe('recordings/2f1c/9a8b-1');
});
