import { randomUUID } from 'node:crypto';
import { objectStorage } from '../../../shared/adapters/object-storage';
import { config } from '../../../shared/config';
import { AppError, errors, type FieldIssue } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { UploadReservation } from './sessions.types';

/**
 * The rules of an audio upload, for recordings and dictation segments alike: the type must be one the configuration
 * accepts (415 otherwise), the size within AUDIO_UPLOAD_MAX_BYTES (413), and what the REST adapter reports having
 * stored must be there, under the key reserved for this record, with the size reported.
 */
const SHA256 = /^[0-9a-f]{64}$/;
const UUID_PART = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function checkAudio(contentType: string, bytes: number | null | undefined): void {
  const cfg = config();
  const type = contentType.trim().toLowerCase();
  if (!cfg.AUDIO_UPLOAD_TYPES.includes(type)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${type ? `${type} is not an accepted audio type` : 'The audio has no Content-Type'}; send one of: ${cfg.AUDIO_UPLOAD_TYPES.join(', ')} (raw, or as the file of a multipart/form-data body)`,
    );
  }
  if (bytes !== null && bytes !== undefined) {
    if (!Number.isFinite(bytes) || bytes < 0) throw errors.invalidField('sizeBytes', 'must be a number of bytes');
    if (bytes > cfg.AUDIO_UPLOAD_MAX_BYTES)
      throw new AppError('PAYLOAD_TOO_LARGE', `The audio is larger than ${cfg.AUDIO_UPLOAD_MAX_BYTES} bytes`);
    if (bytes === 0) throw errors.invalidField('body', 'is empty: send the audio');
  }
}

/** A fresh key under `prefix` (`recordings/<id>`), and the size limit. */
export function reserveAudio(prefix: string, contentType: string, declaredBytes: number | null | undefined): UploadReservation {
  checkAudio(contentType, declaredBytes);
  return { key: `${prefix}/${randomUUID()}`, maxBytes: config().AUDIO_UPLOAD_MAX_BYTES };
}

/** Checks what the adapter reports against the reservation's shape and against storage itself. */
export async function verifyStoredAudio(
  prefix: string,
  upload: { key: string; contentType: string; sizeBytes: number; checksumSha256: string },
): Promise<void> {
  const issues: FieldIssue[] = [];
  if (!new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${UUID_PART}$`).test(upload.key))
    issues.push({ field: 'key', message: 'is not a key reserved for this upload' });
  if (!SHA256.test(upload.checksumSha256)) issues.push({ field: 'checksumSha256', message: 'must be a lowercase hex SHA-256' });
  if (!Number.isInteger(upload.sizeBytes)) issues.push({ field: 'sizeBytes', message: 'must be a whole number of bytes' });
  if (issues.length) throw errors.validation(issues);
  checkAudio(upload.contentType, upload.sizeBytes);
  const stored = await objectStorage().stat(upload.key);
  if (!stored || stored.size !== upload.sizeBytes) throw errors.invalidField('key', 'names no stored audio of that size');
}

/** Removes an object nothing refers to any more; a failure is logged, not the caller's problem. */
export function discardAudio(key: string | null | undefined): void {
  if (!key) return;
  objectStorage()
    .remove(key)
    .catch((err) => logger.warn({ err, key }, 'could not remove replaced audio'));
}
