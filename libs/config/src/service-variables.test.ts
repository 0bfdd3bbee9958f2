import { ConfigError, databaseServiceVariables, loadConfig, processVariables } from './index';

describe('the shared service variables', () => {
  it('every process: listens on 127.0.0.1 (any port), logs at info, metrics on 0.0.0.0:9464', () => {
    expect(loadConfig(processVariables, {})).toEqual({
      PORT: 0,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      METRICS_ENABLED: true,
      METRICS_PORT: 9464,
      METRICS_HOST: '0.0.0.0',
    });
  });

  it('a database service: DATABASE_URL required, migrations at start, nobody trusted, the local public URL', () => {
    expect(() => loadConfig(databaseServiceVariables, {})).toThrow(ConfigError);
    expect(() => loadConfig(databaseServiceVariables, {})).toThrow(/DATABASE_URL/);
    expect(loadConfig(databaseServiceVariables, { DATABASE_URL: 'postgres://x/y', MIGRATE_AT_START: 'false' })).toMatchObject({
      DATABASE_URL: 'postgres://x/y',
      MIGRATE_AT_START: false,
      PUBLIC_URL: 'http://127.0.0.1:8055',
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig(processVariables, { METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig(processVariables, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
