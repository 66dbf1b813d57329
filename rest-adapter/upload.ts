import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ObjectTooLarge, objectStorage } from '../shared/adapters/object-storage';
import { describeIssues, type FieldIssue } from '../shared/errors';
import { logger } from '../shared/logger';
import type { OperationExecutor } from '../shared/prepared-operation';
import { sendError, sendGraphQLError } from './envelope';
import { answer, contextOf, METHODS, readVariables, refusedCaller, type CompiledRoute } from './router';

/**
 * Upload routes (a route with `upload`): the body is a file, raw (`Content-Type: audio/wav`) or the first file part
 * of a `multipart/form-data` body, and it is streamed to object storage as it arrives, never parsed or held whole.
 * The adapter holds no rule: it asks the route's `reserve` mutation (as the caller, authenticated at the edge) whether
 * the upload may happen, where it goes and how many bytes it may have (wrong type: 415, declared too large: 413,
 * not allowed: 401/403/404, all from the subgraph), streams the bytes there counting and hashing them (413 when they
 * run past the limit), and hands size, type and SHA-256 to the `complete` mutation, whose result is the answer.
 * Nothing answered before the body ends stops the client's upload abruptly: the rest is read and dropped, up to
 * DRAIN_LIMIT bytes, then the connection is closed.
 */
const DRAIN_LIMIT = 8 * 1024 * 1024;

/** Bodies that are not a file, for routes whose `operation` takes them. */
const isJson = (req: Request) => !!req.is(['application/json', 'application/*+json']);

/** The media type without its parameters (`audio/webm;codecs=opus` is `audio/webm`), lowercase. */
const mediaType = (value: string | undefined) => (value ?? '').split(';')[0].trim().toLowerCase();

/** Reads and drops what the client still sends after an answer, then lets the connection go. */
function discardRest(req: Request, body: Readable = req): void {
  let dropped = 0;
  body.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT) req.destroy();
  });
  body.resume();
}

interface Upload {
  stream: Readable;
  contentType: string;
  declaredBytes: number | null;
  /** Text fields of a multipart body sent before the file; read as query parameters are. */
  fields: Record<string, string>;
}

function handler(route: CompiledRoute, gateway: OperationExecutor) {
  const { reserve, complete } = route.uploadOps!;
  const context = (req: Request) => contextOf(req);

  async function store(req: Request, res: Response, upload: Upload): Promise<void> {
    const sources = (body: Record<string, unknown>) => ({ params: req.params, query: { ...req.query, ...upload.fields }, body });
    const issues: FieldIssue[] = [];
    const reserveVars = readVariables(reserve, sources({ contentType: upload.contentType, declaredBytes: upload.declaredBytes }), issues);
    if (issues.length) {
      discardRest(req, upload.stream);
      return sendError(res, 'VALIDATION_ERROR', describeIssues(issues), issues);
    }
    const reserved = await gateway.execute(reserve.op, reserveVars, context(req));
    const slot = reserved.data?.[reserve.rootKey] as { key: string; maxBytes: number } | null | undefined;
    if (reserved.errors?.length || !slot) {
      discardRest(req, upload.stream);
      if (reserved.errors?.length) return sendGraphQLError(res, reserved.errors[0]);
      return sendError(res, 'NOT_FOUND', 'Resource not found');
    }
    const storage = objectStorage();
    let stored;
    try {
      stored = await storage.put(slot.key, upload.stream, { contentType: upload.contentType, maxBytes: slot.maxBytes });
    } catch (err) {
      if (req.readableAborted || res.destroyed) return; // the client went away: nothing to answer
      if (err instanceof ObjectTooLarge) {
        discardRest(req, upload.stream);
        return sendError(res, 'PAYLOAD_TOO_LARGE', `The file is larger than ${slot.maxBytes} bytes`);
      }
      logger.error({ err, reqId: req.id }, 'could not store an upload');
      discardRest(req, upload.stream);
      return sendError(res, 'SERVICE_UNAVAILABLE', 'File storage is unavailable; try again later');
    }
    const completeVars = readVariables(
      complete,
      sources({ key: slot.key, contentType: upload.contentType, sizeBytes: stored.size, checksumSha256: stored.sha256 }),
      issues,
    );
    const result = issues.length ? undefined : await gateway.execute(complete.op, completeVars, context(req));
    if (!result || result.errors?.length) {
      // Nothing refers to what was stored: it goes.
      await storage.remove(slot.key).catch((err) => logger.warn({ err, key: slot.key }, 'could not remove an unrecorded upload'));
      if (!result) return sendError(res, 'VALIDATION_ERROR', describeIssues(issues), issues);
    }
    answer({ ...complete, status: route.status }, res, result!);
  }

  const raw = (req: Request, res: Response) => {
    const length = req.headers['content-length'];
    return store(req, res, {
      stream: req,
      contentType: mediaType(req.headers['content-type']),
      declaredBytes: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
      fields: {},
    });
  };

  const multipart = (req: Request, res: Response) =>
    new Promise<void>((resolve) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, limits: { files: 1, fields: 50, fieldSize: 64 * 1024, parts: 100 } });
      } catch (err) {
        sendError(res, 'VALIDATION_ERROR', `Malformed multipart body: ${(err as Error).message}`);
        discardRest(req);
        return resolve();
      }
      const fields: Record<string, string> = {};
      let started = false;
      let work: Promise<void> | undefined;
      parser.on('field', (name, value) => {
        if (!started) fields[name] = value;
      });
      parser.on('file', (_name, file, info) => {
        if (started) return void file.resume();
        started = true;
        work = store(req, res, { stream: file, contentType: mediaType(info.mimeType), declaredBytes: null, fields: { ...fields } });
        work.catch(() => undefined).finally(resolve);
      });
      parser.on('error', (err: Error) => {
        if (!res.headersSent) sendError(res, 'VALIDATION_ERROR', `Malformed multipart body: ${err.message}`);
        req.unpipe(parser);
        discardRest(req);
        if (!work) resolve();
      });
      parser.on('close', () => {
        if (started) return;
        sendError(res, 'VALIDATION_ERROR', 'Invalid input: file is required: send the audio as a file part of the form', [
          { field: 'file', message: 'is required: send the audio as a file part of the form' },
        ]);
        resolve();
      });
      req.pipe(parser);
    });

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      // Who before what, as on every route: a caller turned away learns nothing about the upload's rules.
      const refused = refusedCaller(route, req);
      if (refused) {
        discardRest(req);
        return sendGraphQLError(res, refused);
      }
      if (mediaType(req.headers['content-type']) === 'multipart/form-data') await multipart(req, res);
      else await raw(req, res);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The upload routes, mounted before JSON parsing (which would refuse a file with 415) with the edge's
 * authentication in front of each. A JSON body on a route that also takes one goes on to the REST router.
 */
export function uploadRouter(routes: CompiledRoute[], gateway: OperationExecutor, authenticate: RequestHandler): Router {
  const router = Router();
  for (const route of routes.filter((r) => r.uploadOps)) {
    const skipJson: RequestHandler = (req, _res, next) => next(route.upload!.json && isJson(req) ? 'route' : undefined);
    router[METHODS[route.method]](route.path, skipJson, authenticate, handler(route, gateway));
  }
  return router;
}
