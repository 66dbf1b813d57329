import { defineModule } from '../../../shared/module';
import { ImagingStudy, ImagingStudyStatus } from './imaging-study.entity';
import { ImagingStudyResolver, ImagingStudyTransitionResolver, PatientImagingStudiesResolver } from './imaging-study.resolver';

export default defineModule({
  name: 'imaging-studies',
  description: 'Imaging studies (DICOM study metadata) with a status workflow',
  entities: [ImagingStudy],
  resolvers: [ImagingStudyResolver, ImagingStudyTransitionResolver, PatientImagingStudiesResolver],
  patientData: [
    {
      section: 'imaging_studies',
      entity: ImagingStudy,
      timeline: {
        kind: 'imaging_study',
        at: 'createdAt',
        where: { status: { $ne: ImagingStudyStatus.entered_in_error } },
        title: (r) => `Imaging study: ${r.modality}${r.bodyPart ? ` ${r.bodyPart}` : ''}`,
      },
    },
  ],
});
