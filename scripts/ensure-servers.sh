#!/usr/bin/env bash
# CI's second tier needs PostgreSQL, NATS (JetStream) and Redis on loopback. On this project's machines they are
# started before a session; if one is down (or missing), install/start it from Debian's packages.
set -u
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
need_apt=()
command -v pg_ctlcluster >/dev/null || need_apt+=(postgresql)
command -v nats-server >/dev/null || need_apt+=(nats-server)
command -v redis-server >/dev/null || need_apt+=(redis-server)
# Offline validators of the deployment files (deploy/local/test/deploy-manifests.test.ts).
command -v kubectl >/dev/null || need_apt+=(kubectl)
command -v docker-compose >/dev/null || need_apt+=(docker-compose)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing ${need_apt[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
# The admin app's browser tests (apps/admin/test/*.browser.test.ts): Debian's Chromium, driven by playwright-core.
if ! command -v chromium >/dev/null; then
  echo "installing chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! up 5432; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  su postgres -c "psql -qc \"DO \\\$\\\$BEGIN CREATE ROLE root SUPERUSER LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END\\\$\\\$\"" || true
fi
if ! up 4222; then
  echo "starting NATS"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
fi
if ! up 6379; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
for i in $(seq 1 30); do up 5432 && up 4222 && up 6379 && break; sleep 1; done
for p in 5432 4222 6379; do up $p && echo "127.0.0.1:$p up" || { echo "127.0.0.1:$p is DOWN"; exit 1; }; done
