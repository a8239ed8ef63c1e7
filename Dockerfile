# voice-campaign-worker: the compiled build (dist/) on Node 22, as a non-root user. No TypeScript
# runner and no dev dependency in the runtime image. Check the stack with `docker compose config`.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the build needs only tsc (its native compiler comes as an optional package),
# not the Node binary the `node` dev dependency would fetch.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY bench ./bench
# The package's build (as `npm pack` makes it): tsc, then the dashboard's page, script and style
# beside the compiled server.
RUN npm run build

# Production dependencies only: tsx, esbuild and TypeScript are dev dependencies (the checkout's).
# The image is where traces are switched on by a variable, so it also holds the OpenTelemetry
# packages, optional peers a consumer's install leaves out, at the versions of the lock.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# (npm ci first, as locked; then the peers, dev dependencies in the lock, made this stage's own.)
RUN npm ci --omit=dev --no-audit --no-fund \
 && node -e "const fs = require('fs'); const p = require('./package.json'); for (const n of Object.keys(p.peerDependencies)) { p.dependencies[n] = p.devDependencies[n]; delete p.devDependencies[n]; } fs.writeFileSync('package.json', JSON.stringify(p))" \
 && npm install --omit=dev --no-audit --no-fund \
 && test -e node_modules/@opentelemetry/sdk-node && test -e node_modules/@aws-sdk/client-s3 \
 && test ! -e node_modules/tsx && test ! -e node_modules/esbuild && test ! -e node_modules/vitest

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./package.json
COPY --from=build /app/dist ./dist
COPY bin/healthcheck.js ./bin/healthcheck.js
COPY jobs ./jobs
# What the daemon writes: the inboxes (done/, rejected/, processing/), the file sink's reports and the
# embedded defaults' data. Owned by the user it runs as: as root-owned /app subfolders, `vcw start`
# failed with EACCES on inbox/.
RUN mkdir -p inbox reports .vcw && chown node:node inbox reports .vcw
VOLUME ["/app/inbox", "/app/reports", "/app/.vcw"]
USER node
# Loopback by default: the HEALTHCHECK reaches it inside the container. To publish the dashboard and
# /metrics, set VCW_HTTP_ADDR=0.0.0.0:9400 and VCW_HTTP_TOKEN (refused without a token).
ENV VCW_HTTP_ADDR=127.0.0.1:9400
EXPOSE 9400
# /livez: the process and its event loop, never Redis (an outage must not restart the daemon).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "bin/healthcheck.js"]
ENTRYPOINT ["node", "dist/src/cli/bin.js"]
CMD ["start"]
