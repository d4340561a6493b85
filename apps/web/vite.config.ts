import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: { proxy: Object.fromEntries(['/api', '/cloud', '/user', '/global'].map((p) => [p, { target: api, changeOrigin: false }])) },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
});
