import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createApiClient } from './api/client.ts';
import { ApiProvider } from './state/ApiContext.tsx';
import { LiveStream, LiveStreamProvider } from './state/liveStream.ts';
import { createQueryClient } from './state/queryClient.ts';
import { getApiToken } from './state/tokenStore.ts';
import './theme.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const client = createApiClient({ getToken: getApiToken });
const queryClient = createQueryClient();
const liveStream = new LiveStream();

createRoot(root).render(
  <StrictMode>
    <ApiProvider client={client}>
      <QueryClientProvider client={queryClient}>
        <LiveStreamProvider value={liveStream}>
          <App />
        </LiveStreamProvider>
      </QueryClientProvider>
    </ApiProvider>
  </StrictMode>,
);
