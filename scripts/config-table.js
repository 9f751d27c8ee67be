#!/usr/bin/env node
// Prints the README's configuration table from the services' declared variables (after a build).
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const services = [
  ['api-gateway', 'apiGatewayConfig'],
  ['import-service', 'importServiceConfig'],
  ['dedup-service', 'dedupServiceConfig'],
  ['robot-broker', 'robotBrokerConfig'],
  ['search-request-service', 'searchRequestServiceConfig'],
  ['percolator', 'percolatorConfig'],
];
const { describeConfig } = require(path.join(root, 'packages/platform/dist/config/config.js'));

const rows = new Map();
for (const [service, exportName] of services) {
  const spec = require(path.join(root, 'services', service, 'dist', 'config.js'))[exportName];
  for (const row of describeConfig(spec)) {
    const key = `${row.name}|${row.default}|${row.description}`;
    if (!rows.has(key)) rows.set(key, { ...row, services: [] });
    rows.get(key).services.push(service);
  }
}
console.log('| Variable | Services | Default | Meaning |');
console.log('|---|---|---|---|');
for (const row of rows.values()) {
  const where = row.services.length === services.length ? 'all' : row.services.join(', ');
  console.log(`| \`${row.name}\` | ${where} | \`${row.default}\` | ${row.description} |`);
}
