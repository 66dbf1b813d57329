import { defineRoutes } from '../route';

export default defineRoutes('AI', [
  {
    method: 'POST',
    path: '/api/ai/diagnosis',
    operation: 'Diagnose',
    summary:
      'Differential diagnosis from `symptoms` (`age`, `sex`, `patient_id`, `model_id`, `max_results`); names the model, inputs used and the disclaimer',
  },
  {
    method: 'POST',
    path: '/api/ai/lab-interpretation',
    operation: 'InterpretLabResults',
    summary:
      "Interpret lab `results` [{`code` or `name`, `value`, `unit`, `reference_range`}] (or a `patient_id`'s latest): status per result, panic values, patterns",
  },
  {
    method: 'POST',
    path: '/api/ai/risk-stratification',
    operation: 'StratifyRisk',
    summary:
      'Validated risk scores: `pooled_cohort_equations`, `cha2ds2_vasc`, `qsofa`, `lace` (each with its inputs); age and sex from `patient_id`',
  },
  {
    method: 'POST',
    path: '/api/ai/cancer-detection',
    operation: 'DetectCancer',
    summary: 'Cancer detection on an image (`image_base64`, `content_type`) by a registered image model; 503 when none is registered',
  },
  {
    method: 'POST',
    path: '/api/ai/cloud-inference',
    operation: 'RunInference',
    summary:
      'Call a registered external model (`model_id`): KServe v2 `inputs` tensors, or OpenAI-compatible `messages`; 502/504 when it fails or times out',
  },
  { method: 'GET', path: '/api/ai/models', operation: 'AiModels', summary: 'The AI model registry (`task`, `status`)' },
  {
    method: 'POST',
    path: '/api/ai/models',
    operation: 'CreateAiModel',
    summary:
      'Register an external model: `name`, `version`, `task`, `runtime` (kserve_v2, openai), `endpoint`, `validation_reference`, `timeout_ms`, `api_key`',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/ai/model-info',
    operation: 'AiModelInfo',
    summary: 'Public metadata of the active models (`model_id`, `name`, `task`): name, version, task, runtime, validation reference',
    access: 'public',
  },
  {
    method: 'GET',
    path: '/api/ai/devices',
    operation: 'AiDevices',
    summary: 'Edge devices of my organizations (`organization_id`, `online`), with their computed status',
  },
  {
    method: 'POST',
    path: '/api/ai/devices/register',
    operation: 'CreateAiDevice',
    summary:
      'Register an edge device (`organization_id`, `serial_number`, `name`, `model_id`, `heartbeat_interval_seconds`); the same serial number again updates it',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/ai/devices/:device_id/heartbeat',
    operation: 'RecordAiDeviceHeartbeat',
    summary: 'A device heartbeat: `model_version`, `status` (running, idle, updating, error), `message`',
  },
]);
