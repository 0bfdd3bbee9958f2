export { loadMailerConfig, loadNatsSettings, type MailerConfig } from './config';
export { createApp, type MailerApp, type MailerAppDeps } from './app';
export { startMailer, createTransportFromConfig, type RunningMailer, type StartMailerDeps } from './start';
export { MAILER_DURABLE, MAIL_SENT_BUCKET } from './events/mail-job.consumer';
export { parseMailJob } from './events/parse-mail-job';
export { MailTemplates, escapeHtml, TEMPLATE_NAMES, TEMPLATE_VARIABLES } from './domain/mail-templates';
export { MailMetrics } from './domain/mail-metrics';
export { classifySendFailure } from './domain/send-failure';
export type { MailTransport, OutgoingMail, SendResult } from './domain/mail-transport';
