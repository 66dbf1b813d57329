import type { Viewer } from '../shared/viewer';

declare global {
  namespace Express {
    interface Request {
      /** The verified caller, set by the edge authentication middleware. */
      viewer?: Viewer;
      /** Request id: the caller's X-Request-Id when well formed, else a new UUID. Echoed in the response. */
      id: string;
    }
  }
}

export {};
