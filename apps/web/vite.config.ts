import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The API serves `dist/` at `/` in production; in development `vite` proxies `/api` (REST and the
 * SSE stream) to a locally running `fabscope demo` on the default port. No source maps are built
 * (the API would not serve them anyway), and no module-preload polyfill, which would be an inline
 * script: the API's Content-Security-Policy allows scripts from the page's origin only.
 */
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, modulePreload: { polyfill: false } },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080' } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080' } },
  },
});
