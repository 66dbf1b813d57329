import pino from 'pino';
import { config } from './config';

/** One logger for every process. Secrets and credentials never reach the log. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? config().LOG_LEVEL,
  base: { service: process.env.SERVICE_NAME ?? 'platform' },
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'req.headers.cookie',
      '*.password',
      '*.token',
      '*.refreshToken',
      '*.secret',
    ],
    censor: '[redacted]',
  },
});

export type Logger = typeof logger;
