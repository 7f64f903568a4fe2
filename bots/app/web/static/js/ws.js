// A small WebSocket client: request ids, one answer per request, and pushes.

export class Client {
  /** Open a socket on `path` (e.g. "/ws/game/ID?token=T") of this page's host. */
  constructor(path) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.url = `${scheme}://${location.host}${path}`;
    this.nextId = 1;
    this.pending = new Map();
    this.pushHandlers = [];
    this.closeHandlers = [];
    this.reopenHandlers = [];
    this.opened = this.connect();
  }

  connect() {
    this.socket = new WebSocket(this.url);
    this.socket.onmessage = (event) => this.receive(event.data);
    this.socket.onclose = (event) => this.closed(event);
    const opened = new Promise((resolve, reject) => {
      this.socket.onopen = () => resolve();
      this.socket.onerror = () => reject(new Error("could not connect to the server"));
    });
    opened.catch(() => {}); // a failure is answered by request() and retried by closed()
    return opened;
  }

  receive(data) {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message.push) {
      for (const handler of this.pushHandlers) handler(message);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (waiter) {
      this.pending.delete(message.id);
      waiter(message);
    } else if (message.ok === false) {
      for (const handler of this.closeHandlers) handler(message.error);
    }
  }

  closed(event) {
    for (const waiter of this.pending.values()) waiter({ ok: false, error: "connection closed" });
    this.pending.clear();
    const refused = { 4403: "this seat's link is not valid", 4404: "no such game (it may have expired)" };
    if (refused[event.code]) {
      for (const handler of this.closeHandlers) handler(refused[event.code], event.code);
      return;
    }
    // A dropped connection rejoins (the seat's token is in the URL) and finds the game as it was.
    for (const handler of this.closeHandlers) handler("connection lost: reconnecting…", event.code);
    setTimeout(() => {
      this.opened = this.connect();
      this.opened.then(() => { for (const handler of this.reopenHandlers) handler(); }, () => {});
    }, 1000);
  }

  /** Send `{cmd, ...fields}` and resolve with its answer (ok true or false; never rejects). */
  async request(cmd, fields = {}) {
    try { await this.opened; } catch (error) { return { ok: false, error: error.message }; }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ cmd, id, ...fields }));
    });
  }

  onPush(handler) { this.pushHandlers.push(handler); }
  onClose(handler) { this.closeHandlers.push(handler); }
  onReopen(handler) { this.reopenHandlers.push(handler); }
}

/** POST JSON and return the parsed answer (an error object when the server refuses). */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  try { return await response.json(); } catch { return { ok: false, error: `HTTP ${response.status}` }; }
}
