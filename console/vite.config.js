import { defineConfig } from 'vite';

// The gateway serves the console under /ui/; assets carry content hashes (cached for a year by the gateway).
export default defineConfig({
  base: '/ui/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { target: 'es2022', chunkSizeWarningLimit: 400, reportCompressedSize: false },
  server: { proxy: { '/api': 'http://127.0.0.1:6443', '/apis': 'http://127.0.0.1:6443', '/ui/api': 'http://127.0.0.1:6443' } },
  test: { environment: 'node', include: ['src/**/*.test.js'] },
});
