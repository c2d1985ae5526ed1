/**
 * The dashboard's token, kept by this page alone. It arrives in the address's
 * fragment (`#token=…`, the address ralph dashboard printed) or is traded for
 * the one-time code of the address Ralph opened the browser with (`#code=…`),
 * then lives in sessionStorage, which belongs to this origin (scheme, host and
 * port) and this tab. It is never put in a cookie: the browser would send a
 * cookie of 127.0.0.1 to every other server on 127.0.0.1, whatever its port.
 * Every request to the server carries it in a header.
 */

const STORAGE_KEY = 'ralph-dashboard-token';
export const TOKEN_HEADER = 'x-ralph-token';

export type Access = { ok: true; token: string } | { ok: false; message: string };

const NO_TOKEN_MESSAGE = 'This page has no key to the dashboard. Open the address ralph dashboard printed in its terminal.';

/** Takes the token or code out of the address bar (keeping the rest of the fragment, such as `loop=`), so it is neither bookmarked nor shown. */
function takeFromAddress(): { token: string | null; code: string | null } {
  const params = new URLSearchParams(location.hash.slice(1));
  const found = { token: params.get('token'), code: params.get('code') };
  if (found.token !== null || found.code !== null) {
    params.delete('token');
    params.delete('code');
    const rest = params.toString();
    history.replaceState(null, '', `${location.pathname}${rest === '' ? '' : `#${rest}`}`);
  }
  return found;
}

async function redeem(code: string): Promise<Access> {
  try {
    const res = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const answer = (await res.json()) as { ok: boolean; token?: string; message?: string; hint?: string };
    if (res.ok && typeof answer.token === 'string') return { ok: true, token: answer.token };
    return { ok: false, message: [answer.message, answer.hint].filter(Boolean).join(' ') || NO_TOKEN_MESSAGE };
  } catch (error) {
    return { ok: false, message: `The dashboard did not answer (${String(error)}).` };
  }
}

/** The token of this tab: from the address it was opened with, else the one kept from before (a reload). */
export async function obtainAccess(): Promise<Access> {
  const found = takeFromAddress();
  let access: Access;
  if (found.token !== null && found.token !== '') access = { ok: true, token: found.token };
  else if (found.code !== null && found.code !== '') access = await redeem(found.code);
  else {
    const kept = sessionStorage.getItem(STORAGE_KEY);
    access = kept === null || kept === '' ? { ok: false, message: NO_TOKEN_MESSAGE } : { ok: true, token: kept };
  }
  if (access.ok) sessionStorage.setItem(STORAGE_KEY, access.token);
  return access;
}

/** Forgets the token (the server refused it: it was restarted with a new one). */
export function forgetToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export const REFUSED_MESSAGE =
  'The dashboard refused this page’s key (was ralph dashboard restarted?). Open the address ralph dashboard printed in its terminal.';
