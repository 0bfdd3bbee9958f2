-- One database per service (docker-compose workstation topology). Run once, on an empty data volume, by the
-- postgres image's entrypoint. Each service applies its own migrations at start.
CREATE DATABASE vellum_auth;
CREATE DATABASE vellum_revisions;
CREATE DATABASE vellum_items;
