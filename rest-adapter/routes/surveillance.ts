import { defineRoutes } from '../route';

export default defineRoutes('Surveillance', [
  {
    method: 'GET',
    path: '/api/surveillance/syndromes',
    operation: 'SurveillanceSyndromes',
    summary: 'List the monitored syndromes with their ICD-10 codes and chief complaint terms',
  },
  {
    method: 'GET',
    path: '/api/surveillance/alerts',
    operation: 'SurveillanceAlerts',
    summary:
      'List CDC EARS C1/C2/C3 alerts on daily syndrome counts, each with its baseline and threshold ' +
      "(`syndrome_code`, `organization_id`, `algorithm`, `from`, `to`); my organizations', or all for administrators",
  },
  {
    method: 'POST',
    path: '/api/surveillance/export/reportsys',
    operation: 'PushSurveillanceReportsys',
    summary:
      'Post the syndrome counts of a `period` (DHIS2 syntax) to the aggregate reporting system and keep its import summaries; the same period again updates',
  },
  {
    method: 'GET',
    path: '/api/surveillance/export/reportsys',
    operation: 'SurveillanceReportsysExport',
    summary: 'The syndrome counts of a `period` as DHIS2 dataValueSets, without sending them',
  },
]);
