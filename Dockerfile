# syntax=docker/dockerfile:1
# Build: full install (dev dependencies for the React Router build), then a slim runtime image.
FROM node:24.21.0-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24.21.0-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

FROM node:24.21.0-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/sqlite.db \
    UPLOADS_DIR=/data/uploads
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/build-server ./build-server
COPY package.json ./
COPY server ./server
COPY scripts ./scripts
# The one env parser the scripts (backup, restore, migrate) share with the server.
COPY app/server/env.server.ts ./app/server/env.server.ts
COPY db ./db
RUN mkdir -p /data && chown -R node:node /data
USER node
EXPOSE 3000
# The server runs as plain JavaScript from build-server/ (server/*.ts with the types stripped at build
# time, ADR 132: no runtime type stripping). build-server/launch.js runs the server under
# `litestream replicate -exec` when LITESTREAM_REPLICA_URL or BUCKET_NAME is set (ADR 090), otherwise
# directly; SIGTERM drains requests, then exits. The base image's Node matches package.json's "node".
# The launcher first restarts itself in place with the runtime of server/runtime.ts (V8 heap sized
# for the 256 MB machine, two malloc arenas; ADR 132, 165): the flags live there, not here.
CMD ["node", "build-server/launch.js"]
