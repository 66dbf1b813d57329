import { defineModule } from '../../../shared/module';
import { surveillanceRecompute, surveillanceSchedule } from './surveillance.consumers';
import { SurveillanceAlert, SyndromeDailyCount } from './surveillance.entity';
import { SurveillanceAlertResolver, SurveillanceResolver, SyndromeDailyCountResolver } from './surveillance.resolver';

export default defineModule({
  name: 'surveillance',
  description:
    'Syndromic surveillance: daily syndrome counts per organization from encounters and notifiable cases, CDC EARS C1/C2/C3 alerts, and their aggregate reports to DHIS2',
  entities: [SyndromeDailyCount, SurveillanceAlert],
  resolvers: [SurveillanceResolver, SurveillanceAlertResolver, SyndromeDailyCountResolver],
  consumers: [surveillanceRecompute],
  jobs: [surveillanceSchedule],
});
