import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The API serves `dist/` in production; in development `vite` proxies `/api` to a local `fabscope demo`. No source
 * maps (the API would not serve them), no module-preload polyfill: inline script, and the API's CSP allows same-origin.
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
