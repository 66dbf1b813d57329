import { errors } from '../../../shared/errors';

/**
 * Calling external models, through one interface with two protocols: the Open Inference Protocol (KServe v2, spoken
 * by KServe, Triton, Seldon and MLServer) and OpenAI-compatible chat completions. Only the model's registered
 * address is called, redirects are not followed, every call has the model's timeout, and answers are size-capped.
 * A failure is a 502 (BAD_GATEWAY) naming what went wrong, a timeout a 504 (GATEWAY_TIMEOUT): never a hang.
 */

export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface InferenceTarget {
  runtime: 'kserve_v2' | 'openai';
  /** Base address: KServe's server root, or the OpenAI-compatible API base (ending in /v1). */
  endpoint: string;
  remoteModel: string;
  timeoutMs: number;
  apiKey?: string | null;
  /** For messages: "model ccp-x 1.0". */
  label: string;
}

/** One tensor of the Open Inference Protocol. */
export interface Tensor {
  name: string;
  shape: number[];
  datatype: string;
  data: unknown[];
  parameters?: Record<string, unknown>;
}

export interface KserveResponse {
  model_name: string;
  model_version?: string;
  id?: string;
  outputs: Tensor[];
  parameters?: Record<string, unknown>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | { type: string; [k: string]: unknown }[];
}

export interface ChatResponse {
  text: string;
  finishReason: string | null;
  usage: Record<string, unknown> | null;
  model: string | null;
}

const DATATYPES = new Set([
  'BOOL',
  'UINT8',
  'UINT16',
  'UINT32',
  'UINT64',
  'INT8',
  'INT16',
  'INT32',
  'INT64',
  'FP16',
  'FP32',
  'FP64',
  'BYTES',
  'BF16',
]);

function isTensor(t: unknown): t is Tensor {
  if (!t || typeof t !== 'object') return false;
  const x = t as Record<string, unknown>;
  return (
    typeof x.name === 'string' &&
    typeof x.datatype === 'string' &&
    DATATYPES.has(x.datatype) &&
    Array.isArray(x.shape) &&
    x.shape.every((n) => Number.isInteger(n) && (n as number) >= 0) &&
    Array.isArray(x.data)
  );
}

/** Checks tensors a caller sends (cloud inference): a problem names the field. */
export function checkTensors(inputs: unknown, field = 'inputs'): Tensor[] {
  if (!Array.isArray(inputs) || !inputs.length || inputs.length > 64)
    throw errors.invalidField(field, 'must be a list of 1 to 64 Open Inference Protocol tensors');
  inputs.forEach((t, i) => {
    if (!isTensor(t))
      throw errors.invalidField(
        `${field}.${i}`,
        `must be a tensor: name, shape (list of sizes), datatype (${[...DATATYPES].join(', ')}), data (list)`,
      );
    const size = t.shape.reduce((a, b) => a * b, 1);
    if (t.data.length !== size) {
      throw errors.invalidField(`${field}.${i}.data`, `must hold ${size} values for shape [${t.shape.join(', ')}]`);
    }
  });
  return inputs as Tensor[];
}

async function readCapped(res: Response, label: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) throw errors.badGateway(`${label} answered more than ${MAX_RESPONSE_BYTES} bytes`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw errors.badGateway(`${label} answered more than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isTimeout = (err: unknown) =>
  (err as { name?: string }).name === 'TimeoutError' || (err as { cause?: { name?: string } }).cause?.name === 'TimeoutError';

/** POSTs JSON to the registered address and answers the parsed JSON; failures become 502 or 504. */
async function postJson(target: InferenceTarget, path: string, body: unknown): Promise<unknown> {
  const url = target.endpoint.replace(/\/+$/, '') + path;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const signal = AbortSignal.timeout(target.timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'manual', signal });
    text = await readCapped(res, target.label);
  } catch (err) {
    if (isTimeout(err)) throw errors.gatewayTimeout(`${target.label} did not answer within ${target.timeoutMs} ms`);
    if ((err as { extensions?: unknown }).extensions) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw errors.badGateway(`${target.label} could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message})`);
  }
  if (res.status >= 300 && res.status < 400) {
    throw errors.badGateway(`${target.label} answered a redirect (${res.status}); only the registered address is called`);
  }
  if (!res.ok) {
    const detail = text.slice(0, 200).replace(/\s+/g, ' ').trim();
    throw errors.badGateway(`${target.label} failed with HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw errors.badGateway(`${target.label} answered something that is not JSON`);
  }
}

/** Open Inference Protocol: POST {endpoint}/v2/models/{model}/infer. */
export async function kserveInfer(
  target: InferenceTarget,
  request: { id?: string; inputs: Tensor[]; parameters?: Record<string, unknown> },
): Promise<KserveResponse> {
  const answer = (await postJson(
    target,
    `/v2/models/${encodeURIComponent(target.remoteModel)}/infer`,
    request,
  )) as Partial<KserveResponse> | null;
  if (!answer || typeof answer !== 'object' || !Array.isArray(answer.outputs) || !answer.outputs.every(isTensor)) {
    throw errors.badGateway(`${target.label} answered something that is not an Open Inference Protocol response (outputs: tensors)`);
  }
  return answer as KserveResponse;
}

/** OpenAI-compatible chat completions: POST {endpoint}/chat/completions. */
export async function chatComplete(
  target: InferenceTarget,
  messages: ChatMessage[],
  options: { temperature?: number; maxTokens?: number } = {},
): Promise<ChatResponse> {
  const answer = (await postJson(target, '/chat/completions', {
    model: target.remoteModel,
    messages,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
  })) as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[]; usage?: unknown; model?: unknown } | null;
  const choice = answer?.choices?.[0];
  if (!choice || typeof choice.message?.content !== 'string') {
    throw errors.badGateway(
      `${target.label} answered something that is not an OpenAI-compatible chat completion (choices[0].message.content)`,
    );
  }
  return {
    text: choice.message.content,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: answer?.usage && typeof answer.usage === 'object' ? (answer.usage as Record<string, unknown>) : null,
    model: typeof answer?.model === 'string' ? answer.model : null,
  };
}
