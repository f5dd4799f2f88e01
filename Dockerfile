# fabscope: one image for every role (emulator, collector, API + dashboard); the command picks it.
# Build stage: all dependencies, then the web bundle.
FROM node:20.19.5-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/topology/package.json packages/topology/
COPY packages/emulator/package.json packages/emulator/
COPY packages/collectors/package.json packages/collectors/
COPY apps/cli/package.json apps/cli/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: production dependencies only, the sources (run through tsx) and the built web app.
FROM node:20.19.5-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/topology/package.json packages/topology/
COPY --from=build /app/packages/emulator/package.json packages/emulator/
COPY --from=build /app/packages/collectors/package.json packages/collectors/
COPY --from=build /app/apps/cli/package.json apps/cli/
COPY --from=build /app/apps/api/package.json apps/api/
COPY --from=build /app/apps/web/package.json apps/web/
COPY --from=build /app/e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/packages/topology/src packages/topology/src
COPY --from=build /app/packages/emulator/src packages/emulator/src
COPY --from=build /app/packages/collectors/src packages/collectors/src
COPY --from=build /app/apps/cli/src apps/cli/src
COPY --from=build /app/apps/cli/bin apps/cli/bin
COPY --from=build /app/apps/api/src apps/api/src
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/deploy deploy
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "apps/cli/bin/fabscope.js"]
CMD ["serve"]
