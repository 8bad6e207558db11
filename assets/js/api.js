// Talking to the server: JSON in, an Error with the server's sentence and status out.

export async function api(path) {
  const response = await fetch(path, { headers: { accept: "application/json" } });
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
