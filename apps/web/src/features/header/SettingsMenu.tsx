import { type FormEvent, memo, useState } from 'react';
import { InputField } from '../../components/Field.tsx';
import { setApiToken, useApiToken } from '../../state/tokenStore.ts';

/** Preferences: the optional API bearer token, kept in this browser's localStorage. */
export const SettingsMenu = memo(function SettingsMenu() {
  const token = useApiToken();
  const [draft, setDraft] = useState('');

  const save = (event: FormEvent) => {
    event.preventDefault();
    setApiToken(draft);
    setDraft('');
  };

  return (
    <details className="settings">
      <summary>Settings</summary>
      <form className="settings-body" onSubmit={save}>
        <InputField
          label="API token"
          type="password"
          autoComplete="off"
          placeholder={token ? 'token set (hidden)' : 'none'}
          value={draft}
          onChange={setDraft}
        />
        <div className="settings-actions">
          <button type="submit" className="btn btn-small" disabled={draft.trim() === ''}>
            Save token
          </button>
          <button type="button" className="btn btn-small" disabled={!token} onClick={() => setApiToken(null)}>
            Clear token
          </button>
        </div>
        <p className="hint">
          Sent as <code>Authorization: Bearer …</code> with changes (adaptive routing, traffic). Needed only
          when the API listens beyond loopback. Stored in this browser only.
        </p>
        <p className="hint">Token: {token ? 'set' : 'not set'}</p>
      </form>
    </details>
  );
});
