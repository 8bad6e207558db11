// Talking to the server: JSON in, an Error with the server's sentence and status out.

// A busy server (503, every heavy slot taken) says when to come back with Retry-After: the page
// waits that long and asks again, a few times, before it shows the error.
const BUSY_RETRIES = 3;

export async function api(path) {
  let response = await fetch(path, { headers: { accept: "application/json" } });
  for (let retry = 0; response.status === 503 && retry < BUSY_RETRIES; retry++) {
    const seconds = Math.min(Number(response.headers.get("retry-after")) || 2, 10);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    response = await fetch(path, { headers: { accept: "application/json" } });
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    const error = new Error((body && body.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

// The server's limits and algorithm lists (src/serve/config.rs): { steps, browse, learn, solve }.
export function loadConfig() {
  return api("/api/config");
}
