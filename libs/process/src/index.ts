export { runServiceProcess, type ServiceProcess, type ServiceDeps } from './run-service-process';
