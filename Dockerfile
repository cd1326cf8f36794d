# Multi-stage image of the whole product (console, API, SMTP inbox, worker) on one process tree.
FROM node:22-bookworm-slim AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The local package that links the `ecfx` bin must be there when npm installs.
COPY scripts/ecfx-command ./scripts/ecfx-command
# Bug fixes to installed packages, applied by the install (patch-package; decision 114).
COPY patches ./patches
RUN npm ci

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
# A real, empty installation: no demo firms, no published demo password, the real courts and PACER
# (the demo and its court simulator are for `npm start` on a developer's machine). The first start
# prints how to create the first firm and its administrator (`ecfx firm create`).
ENV NODE_ENV=production \
    ECFX_DEMO=false \
    ECFX_CASE_RETRIEVE=false \
    ECFX_DATA_DIR=/data \
    PORT=3000 \
    ECFX_API_PORT=8080 \
    ECFX_HOST=0.0.0.0
WORKDIR /app
RUN groupadd --system ecfx && useradd --system --gid ecfx --uid 10001 --home /app ecfx \
 && mkdir -p /data && chown ecfx:ecfx /data
COPY --from=build --chown=ecfx:ecfx /app /app
USER ecfx
VOLUME ["/data"]
EXPOSE 3000 2525
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthcheck').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/server/main.js"]
