# syntax=docker/dockerfile:1
# Build: full install (dev dependencies for the React Router build), then a slim runtime image.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx react-router build

FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/sqlite.db \
    UPLOADS_DIR=/data/uploads
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY server ./server
COPY scripts ./scripts
COPY db ./db
RUN mkdir -p /data && chown -R node:node /data
USER node
EXPOSE 3000
# Node 24 runs server/index.ts directly (type stripping); SIGTERM drains requests, then exits.
CMD ["node", "--max-semi-space-size=4", "server/index.ts"]
