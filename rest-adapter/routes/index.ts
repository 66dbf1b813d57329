import type { RouteTable } from '../route';
import admin from './admin';
import allergies from './allergies';
import auth from './auth';
import clinicalRecords from './clinical-records';
import consent from './consent';
import conversations from './conversations';
import dataSubjectRequests from './data-subject-requests';
import diagnosticReports from './diagnostic-reports';
import developer from './developer';
import dlq from './dlq';
import doctors from './doctors';
import facilities from './facilities';
import imaging from './imaging';
import imagingStudies from './imaging-studies';
import immunizations from './immunizations';
import labs from './labs';
import observations from './observations';
import orgAdmin from './org-admin';
import organizations from './organizations';
import patientJourney from './patient-journey';
import patients from './patients';
import prescriptions from './prescriptions';
import scheduling from './scheduling';
import staff from './staff';
import serviceRequests from './service-requests';
import telemedicine from './telemedicine';
import vitals from './vitals';

/** Every REST module's route table. */
export const ROUTE_TABLES: RouteTable[] = [
  auth,
  admin,
  developer,
  dlq,
  organizations,
  doctors,
  facilities,
  conversations,
  orgAdmin,
  staff,
  patients,
  clinicalRecords,
  consent,
  patientJourney,
  dataSubjectRequests,
  labs,
  prescriptions,
  immunizations,
  vitals,
  observations,
  imaging,
  allergies,
  serviceRequests,
  diagnosticReports,
  imagingStudies,
  scheduling,
  telemedicine,
];
