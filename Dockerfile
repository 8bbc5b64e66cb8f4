# Portal Pacientes: one image for the portal (default command) and the mocks (docker-compose overrides the command).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.ts
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4200
EXPOSE 4200
CMD ["npx", "tsx", "server/main.ts"]
