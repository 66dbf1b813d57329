import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { config } from '../../../shared/config';

/**
 * Speech-to-text behind one interface. The one implementation speaks the OpenAI-compatible
 * `POST /v1/audio/transcriptions` API that whisper.cpp's server, faster-whisper servers and vLLM all serve: a
 * multipart form with the audio `file`, `model` and `response_format=verbose_json`, answered with the text and its
 * timed segments. The audio is streamed from storage into the request, never held whole. Without
 * `TRANSCRIPTION_URL` there is no provider: transcripts wait for a person to submit them (no model ships with the
 * platform, and none is fetched from anywhere).
 */
export interface TranscriptionResult {
  text: string;
  language: string | null;
  segments: { startSeconds: number | null; endSeconds: number | null; text: string; speaker: string | null }[];
  model: string;
}

export interface SpeechToText {
  readonly model: string;
  transcribe(audio: Readable, opts: { contentType: string; language?: string | null }): Promise<TranscriptionResult>;
}

/** A failure speech-to-text will not recover from by trying again (the server refused the audio). */
export class SpeechToTextRefused extends Error {
  override name = 'SpeechToTextRefused';
}

const EXTENSIONS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
};

/** The transcription endpoint of a server whose base URL is given with or without its `/v1`. */
export function transcriptionEndpoint(base: string): string {
  const root = base.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${root}/v1/audio/transcriptions`;
}

export class OpenAiCompatibleSpeechToText implements SpeechToText {
  constructor(
    private readonly url: string,
    readonly model: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  async transcribe(audio: Readable, opts: { contentType: string; language?: string | null }): Promise<TranscriptionResult> {
    const boundary = `----ccp-${randomUUID()}`;
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head =
      field('model', this.model) +
      field('response_format', 'verbose_json') +
      (opts.language ? field('language', opts.language) : '') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="audio.${EXTENSIONS[opts.contentType] ?? 'bin'}"\r\n` +
      `Content-Type: ${opts.contentType}\r\n\r\n`;
    async function* body() {
      yield Buffer.from(head);
      for await (const chunk of audio) yield chunk as Buffer;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    let res: Response;
    try {
      res = await fetch(transcriptionEndpoint(this.url), {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          accept: 'application/json',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: body() as unknown as BodyInit,
        duplex: 'half',
        signal: AbortSignal.timeout(this.timeoutMs),
      } as RequestInit & { duplex: 'half' });
    } finally {
      // A request that failed early leaves the audio half read.
      if (!audio.readableEnded) audio.destroy();
    }
    const raw = await res.text();
    if (!res.ok) {
      const message = `speech-to-text answered ${res.status}: ${raw.slice(0, 300)}`;
      // The server refused the request itself (bad audio, unknown model); a busy or failing server may answer later.
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw new SpeechToTextRefused(message);
      throw new Error(message);
    }
    let parsed: { text?: unknown; language?: unknown; segments?: unknown };
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      throw new SpeechToTextRefused(`speech-to-text answered something other than JSON: ${raw.slice(0, 100)}`);
    }
    if (typeof parsed.text !== 'string') throw new SpeechToTextRefused('speech-to-text answered without a text');
    const segments = Array.isArray(parsed.segments)
      ? (parsed.segments as Record<string, unknown>[])
          .filter((s) => s && typeof s.text === 'string' && (s.text as string).trim())
          .map((s) => ({
            startSeconds: typeof s.start === 'number' ? s.start : null,
            endSeconds: typeof s.end === 'number' ? s.end : null,
            text: (s.text as string).trim(),
            speaker: typeof s.speaker === 'string' ? s.speaker : null,
          }))
      : [];
    return {
      text: parsed.text.trim(),
      language: typeof parsed.language === 'string' ? languageCode(parsed.language) : (opts.language ?? null),
      segments,
      model: this.model,
    };
  }
}

/** Whisper answers language names ("english") in verbose_json; ISO 639-1 codes are kept as they are. */
const LANGUAGES: Record<string, string> = {
  english: 'en',
  french: 'fr',
  swahili: 'sw',
  portuguese: 'pt',
  spanish: 'es',
  arabic: 'ar',
  amharic: 'am',
  hausa: 'ha',
  yoruba: 'yo',
  zulu: 'zu',
};
function languageCode(value: string): string {
  const v = value.trim().toLowerCase();
  return LANGUAGES[v] ?? v.slice(0, 35);
}

/** The configured provider, or null when none is: transcripts then wait for a submitted text. */
export function speechToText(): SpeechToText | null {
  const cfg = config();
  if (!cfg.TRANSCRIPTION_URL) return null;
  return new OpenAiCompatibleSpeechToText(
    cfg.TRANSCRIPTION_URL,
    cfg.TRANSCRIPTION_MODEL,
    cfg.TRANSCRIPTION_API_KEY,
    cfg.TRANSCRIPTION_TIMEOUT_MS,
  );
}

export const NO_PROVIDER =
  'No speech-to-text provider is configured (TRANSCRIPTION_URL): waiting for the transcript to be submitted with POST /api/sessions/transcripts/:id';
