import { raw } from '@mikro-orm/core';
import { objectStorage } from '../../../shared/adapters/object-storage';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import type { EntityManager } from '../../../shared/db';
import { PermanentEventError, type ConsumerContext, type ConsumerDefinition } from '../../../shared/events';
import { logger } from '../../../shared/logger';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Recording, RecordingStatus } from './recording.entity';
import { TRANSCRIPTION_REQUESTED } from './sessions.events';
import { NO_PROVIDER, SpeechToTextRefused, speechToText } from './speech-to-text';
import { transcriptCompleted } from './transcript.service';
import { Transcript, TranscriptSource, TranscriptStatus } from './transcript.entity';

/**
 * A failure, written outside the event's transaction (which rolls back when the handler throws) so the transcript
 * shows it: each attempt counts, and the last one marks the transcript failed. Only a pending transcript changes: one
 * a person completed meanwhile is left alone.
 */
async function recordFailure(em: EntityManager, transcriptId: string, message: string, final: boolean): Promise<void> {
  const outside = em.fork();
  const detail = final ? `Speech-to-text failed: ${message}` : `Speech-to-text failed, will retry: ${message}`;
  await outside.nativeUpdate(
    Transcript,
    { id: transcriptId, status: TranscriptStatus.pending },
    { attempts: raw('attempts + 1') as never, statusDetail: detail.slice(0, 1000), ...(final ? { status: TranscriptStatus.failed } : {}) },
  );
}

/**
 * The speech-to-text job: streams the recording's audio from storage to the provider and keeps the text and timed
 * segments. Without a provider it records that the transcript waits for a submitted text. A failure is retried with
 * the bus's backoff; the provider refusing the audio, or the audio missing, is final at once. After the last attempt
 * the transcript is failed and the event is in the dead letter queue.
 */
export const transcriptionJobs: ConsumerDefinition = {
  name: 'transcription-jobs',
  description: 'transcribes a ready recording through the speech-to-text provider, when one is configured',
  topics: [TRANSCRIPTION_REQUESTED.name],
  async handle(event, { em, attempt, viewer, requestId }: ConsumerContext) {
    const payload = TRANSCRIPTION_REQUESTED.payload.safeParse(event.payload);
    if (!payload.success) throw new PermanentEventError(`not a transcription request: ${payload.error.message}`);
    const { transcript_id: transcriptId } = payload.data;
    const transcript = await em.findOne(Transcript, { id: transcriptId });
    if (!transcript || transcript.status !== TranscriptStatus.pending) return; // gone, or completed by a person meanwhile
    const stt = speechToText();
    if (!stt) {
      transcript.statusDetail = NO_PROVIDER;
      return;
    }
    const final = (e: unknown) =>
      e instanceof SpeechToTextRefused || e instanceof PermanentEventError || attempt + 1 >= config().EVENT_MAX_ATTEMPTS;
    // Set once the transcript row is written in this transaction: a failure after that only rolls back (recording it
    // from another connection would wait for this transaction's row lock forever).
    let written = false;
    try {
      const recording = await em.findOne(Recording, { id: transcript.recordingId });
      if (!recording?.storageKey || recording.status !== RecordingStatus.ready || !recording.contentType) {
        throw new PermanentEventError('the recording has no ready audio');
      }
      const audio = await objectStorage().read(recording.storageKey);
      const result = await stt.transcribe(audio, { contentType: recording.contentType, language: transcript.language });
      const segments = result.segments.length
        ? result.segments
        : result.text
          ? [{ speaker: null, startSeconds: null, endSeconds: null, text: result.text }]
          : [];
      const changed = await em.nativeUpdate(
        Transcript,
        { id: transcript.id, status: TranscriptStatus.pending },
        {
          status: TranscriptStatus.completed,
          source: TranscriptSource.speech_to_text,
          model: result.model,
          language: result.language,
          text: result.text,
          segments,
          attempts: transcript.attempts + 1,
          statusDetail: null,
          completedAt: clock.now(),
        },
      );
      written = true;
      if (!changed) return;
      const done = await em.findOneOrFail(Transcript, { id: transcript.id }, { refresh: true });
      const ctx = { viewer, em, requestId } as unknown as SubgraphContext;
      transcriptCompleted(ctx, em, done);
    } catch (err) {
      const message = (err as Error).message;
      const last = final(err);
      if (!written)
        await recordFailure(em, transcript.id, message, last).catch((e) =>
          logger.error({ err: e, transcriptId }, 'could not record a transcription failure'),
        );
      throw err instanceof SpeechToTextRefused ? new PermanentEventError(message) : err;
    }
  },
};
