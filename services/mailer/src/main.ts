// The mailer as its own process: config from the environment, NATS; SIGTERM → finish the jobs in hand, then exit.
import { runServiceProcess } from '@vellum/process';
import { loadMailerConfig, loadNatsSettings } from './config';
import { startMailer } from './start';

runServiceProcess({
  name: 'mailer',
  load: loadMailerConfig,
  nats: loadNatsSettings,
  start: startMailer,
});
