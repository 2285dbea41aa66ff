// roost's browser board: Play, Analyse, Tournaments, Replay; every page uses the HTTP API
// of docs/web.md (the same calls any program can make).
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token");
const main = document.getElementById("main");
let leave = () => {};            // the current page's clean-up (closes its sockets)
let GAMES = [];

// ------------------------------------------------------------------------------ the API
async function api(path, body) {
  const headers = {"Content-Type": "application/json"};
  if (TOKEN) headers.Authorization = "Bearer " + TOKEN;
  const res = await fetch(path, body === undefined ? {headers} : {method: "POST", headers, body: JSON.stringify(body)});
  const data = await res.json().catch(() => ({error: `${res.status} ${res.statusText}`}));
  if (!res.ok) throw new Error(data.error || `${res.status}`);
  return data;
}

function socket(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (TOKEN) url.searchParams.set("token", TOKEN);
  return new WebSocket(url);
}

function toast(message) {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
}

function h(html) {
  const d = document.createElement("div");
  d.innerHTML = html;
  return d;
}

function gameOptions(selected) {
  return GAMES.map((g) => `<option value="${g.name}"${g.name === selected ? " selected" : ""}>${escapeHtml(g.title)}</option>`).join("");
}

function gameOf(name) { return GAMES.find((g) => g.name === name); }

function clockText(s) {
  if (s === null || s === undefined) return "";
  const neg = s < 0; s = Math.abs(s);
  const m = Math.floor(s / 60), sec = s - 60 * m;
  return (neg ? "-" : "") + m + ":" + sec.toFixed(1).padStart(4, "0");
}

function valueText(v, verdict) {
  if (verdict) return verdict;
  return v === null || v === undefined ? "-" : v.toFixed(3);
}

// -------------------------------------------------------------------------------- Play
function pagePlay(params) {
  const game = params.get("game") || "ducks";
  main.innerHTML = `<h2>Play</h2>
    <div class="panel" id="setup">
      <label>game <select id="game">${gameOptions(game)}</select></label>
      <label>players <select id="players"></select></label>
      <label>clock <input id="tc" type="text" size="8" placeholder="none" title="BASE+INC seconds, e.g. 300+2; empty: no clock"></label>
      <label>seed <input id="seed" type="number" value="${Math.floor(Math.random() * 100000)}" min="0" style="width:90px"></label>
      <div><label style="width:100%">start from <input id="position" type="text" style="flex:1" placeholder="a position text (empty: a fresh game dealt from the seed)" value="${escapeHtml(params.get("position") || "")}"></label></div>
      <div id="seats"></div>
      <button class="primary" id="start">Start the game</button>
    </div>
    <div id="table"></div>`;
  const $ = (s) => main.querySelector(s);
  const fillPlayers = () => {
    const g = gameOf($("#game").value);
    $("#players").innerHTML = "";
    for (let n = g.players.min; n <= g.players.max; n++) {
      $("#players").innerHTML += `<option${n === g.players.default ? " selected" : ""}>${n}</option>`;
    }
    fillSeats();
  };
  const fillSeats = () => {
    const g = gameOf($("#game").value);
    const n = +$("#players").value;
    const sides = g.sides.length >= n ? g.sides : [...Array(n).keys()].map((k) => "seat " + k);
    $("#seats").innerHTML = [...Array(n).keys()].map((k) => `<div><label>${escapeHtml(sidesFor(g, n)[k])}
      <select class="who" data-seat="${k}"><option value="human"${k === 0 ? " selected" : ""}>a person</option><option value="engine"${k ? " selected" : ""}>an engine</option></select>
      <input class="spec" data-seat="${k}" type="text" value="auto" size="22" title="engine spec, e.g. auto:time=1, mcts:time=2, ab:depth=6"></label></div>`).join("");
    void sides;
  };
  $("#game").addEventListener("change", fillPlayers);
  $("#players").addEventListener("change", fillSeats);
  fillPlayers();
  $("#start").addEventListener("click", async () => {
    const seats = [...main.querySelectorAll(".who")].map((s) =>
      s.value === "human" ? "human" : main.querySelector(`.spec[data-seat="${s.dataset.seat}"]`).value);
    try {
      const position = $("#position").value.trim() || null;
      const view = await api("/api/play", {game: $("#game").value, players: position ? null : +$("#players").value,
        seats, position,
        tc: $("#tc").value.trim() || null, seed: +$("#seed").value || 0});
      location.hash = `#/play/${view.id}`;
    } catch (e) { toast(e.message); }
  });
}

function sidesFor(g, n) {
  return g.sides.length === n ? g.sides : [...Array(n).keys()].map((k) => "seat " + k);
}

function pageGame(gid) {
  main.innerHTML = `<div class="row">
      <div class="wide panel"><div id="banner"></div><div id="board"></div></div>
      <div class="side">
        <div class="panel"><h3>Seats</h3><div class="seats" id="seats"></div><div class="thinking" id="thinking"></div></div>
        <div class="panel"><button id="undo">Undo</button> <button id="hint">Hint</button>
          <button id="resign">Resign</button> <button id="again">New game</button> <button id="analyse">Analyse</button></div>
        <div class="panel"><h3>Moves</h3><div class="history" id="history"></div></div>
      </div></div>`;
  const $ = (s) => main.querySelector(s);
  let view = null;
  // the newest view wins: an answer to a request can come after the live socket's news
  const take = (v) => { if (!view || v.version >= view.version) { view = v; render(); } };
  const board = new Board($("#board"), {
    onMove: async (name) => {
      try { take(await api(`/api/play/${gid}/move`, {move: name})); } catch (e) { toast(e.message); board.show(view, {interactive: view.your_turn}); }
    },
    preview: async (name) => {
      try { return (await api(`/api/play/${gid}/preview`, {move: name})).picture; } catch (e) { return null; }
    },
  });
  const render = () => {
    board.show(view, {interactive: view.your_turn});
    const sides = view.sides;
    $("#seats").innerHTML = view.seats.map((s, k) => `<div class="seat${view.to_move === k ? " to-move" : ""}" data-seat="${k}">
      <span>${escapeHtml(sides[k])}: ${s === "human" ? "a person" : escapeHtml(s)}</span>
      <span class="clock">${view.clocks ? clockText(view.clocks[k]) : ""}</span></div>`).join("");
    $("#banner").innerHTML = view.over
      ? `<div class="banner over" id="result">Game over: ${escapeHtml(view.result_text)}</div>`
      : view.your_turn ? `<div class="banner" id="turn">${escapeHtml(view.mover_name)}: your move</div>`
      : `<div class="banner" id="turn">${escapeHtml(view.mover_name || "")} to move${view.thinking !== null ? " (thinking)" : ""}</div>`;
    $("#history").innerHTML = view.history.map((p, k) =>
      `<span class="ply">${k + 1}.</span><span title="${p.mover === "chance" ? "chance" : escapeHtml(sides[p.mover] + (p.words ? ": " + p.words : ""))}">${p.name !== null ? escapeHtml(p.name) : p.mover === "chance" ? "(chance)" : "(hidden)"}</span>`).join(" ");
    $("#history").scrollTop = 1e9;
    $("#undo").disabled = !view.can_undo;
    $("#hint").disabled = !view.your_turn;
    $("#resign").disabled = view.over || !view.seats.includes("human");
    if (!view.thinking && view.thinking !== 0) $("#thinking").textContent = "";
  };
  const live = socket(`/api/play/${gid}/live`);
  live.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "position") take(msg.view);
    else if (msg.type === "thinking") {
      $("#thinking").textContent = `${view ? view.sides[msg.seat] : ""} thinks: ${msg.progress.text}`;
      if (msg.progress.pv && msg.progress.pv.length) board.mark("pv", []);
    }
    else if (msg.type === "error") toast(msg.error);
  };
  const ticker = setInterval(() => {
    if (!view || !view.clocks || view.over || view.to_move === null || view.to_move === "chance") return;
    const el = main.querySelector(`.seat[data-seat="${view.to_move}"] .clock`);
    if (el) { view.clocks[view.to_move] -= 0.1; el.textContent = clockText(view.clocks[view.to_move]); }
  }, 100);
  leave = () => { live.close(); clearInterval(ticker); };
  const act = (what) => async () => {
    try { take(await api(`/api/play/${gid}/${what}`, {})); } catch (e) { toast(e.message); }
  };
  $("#undo").addEventListener("click", act("undo"));
  $("#resign").addEventListener("click", act("resign"));
  $("#hint").addEventListener("click", async () => {
    try {
      const hint = await api(`/api/play/${gid}/hint`, {});
      board.mark("hint", hint.steps.map((s) => s[0]).filter(Boolean));
      $("#thinking").textContent = `hint: ${hint.move} (${hint.engine})`;
    } catch (e) { toast(e.message); }
  });
  $("#again").addEventListener("click", async () => {     // the same setup, a fresh deal
    if (!view) return;
    try {
      const fresh = await api("/api/play", {game: view.game, players: view.position ? null : view.players,
        seats: view.seats, position: view.position, tc: view.tc, seed: Math.floor(Math.random() * 100000)});
      location.hash = `#/play/${fresh.id}`;
    } catch (e) { toast(e.message); }
  });
  $("#analyse").addEventListener("click", () => {
    if (!view) return;
    if (!view.text) { toast("this game hides cards: its position is not shown to a seat"); return; }
    sessionStorage.setItem("analyse", JSON.stringify({game: view.game, position: view.text, moves: []}));
    location.hash = "#/analyse";
  });
}

// ----------------------------------------------------------------------------- Analyse
function pageAnalyse(params) {
  const carried = JSON.parse(sessionStorage.getItem("analyse") || "null");
  sessionStorage.removeItem("analyse");
  const state = {game: params.get("game") || (carried && carried.game) || "ducks",
    start: (carried && carried.position) || params.get("position") || "", moves: (carried && carried.moves) || [],
    ply: 0, players: null, values: []};
  state.ply = state.moves.length;
  main.innerHTML = `<h2>Analyse</h2><div class="row">
    <div class="wide panel">
      <div><label>game <select id="game">${gameOptions(state.game)}</select></label>
        <label>players <select id="players"></select></label>
        <button id="fresh">New start</button></div>
      <textarea id="position" rows="2" placeholder="paste a position text (empty: the game's start)"></textarea>
      <div><button id="load">Load the position</button> <span class="muted" id="where"></span></div>
      <div class="steps"><button id="first">|&lt;</button> <button id="back">&lt;</button>
        <button id="forward">&gt;</button> <button id="last">&gt;|</button>
        <input id="typed" type="text" size="16" placeholder="a move by name"> <button id="play">Play it</button>
        <span id="chance"></span></div>
      <div id="board"></div>
    </div>
    <div class="side">
      <div class="panel"><h3>Engine</h3>
        <label>engine <input id="engine" type="text" value="auto" size="18"></label>
        <label>seconds <input id="seconds" type="number" value="10" min="0.1" step="0.1" style="width:70px"></label>
        <label>lines <input id="multipv" type="number" value="3" min="1" max="16" style="width:50px"></label>
        <label>for seat <select id="as"><option value="">the mover</option></select></label>
        <div><button class="primary" id="go">Analyse</button> <button id="stop">Stop</button></div>
        <div class="thinking" id="info"></div>
        <table class="lines" id="lines"></table>
      </div>
      <div class="panel"><h3>Evaluation graph</h3>
        <label>seconds a position <input id="graph-seconds" type="number" value="0.2" min="0.01" step="0.05" style="width:70px"></label>
        <button id="graph">Draw the graph</button><div class="graph" id="graphbox"></div></div>
      <div class="panel"><h3>Moves</h3><div class="history" id="history"></div></div>
    </div></div>`;
  const $ = (s) => main.querySelector(s);
  $("#position").value = state.start;
  const ws = socket("/api/analyse");
  let view = null, running = false, tag = 0;
  const board = new Board($("#board"), {
    onMove: (name) => playMove(name),
    preview: async (name) => {
      try { return (await api("/api/position", body(state.moves.slice(0, state.ply).concat([name])))).picture; } catch (e) { return null; }
    },
  });
  const body = (moves) => ({game: state.game, position: state.start || null, players: state.start ? null : state.players, moves});
  const fillPlayers = () => {
    const g = gameOf(state.game);
    $("#players").innerHTML = "";
    for (let n = g.players.min; n <= g.players.max; n++) {
      $("#players").innerHTML += `<option${n === (state.players || g.players.default) ? " selected" : ""}>${n}</option>`;
    }
  };
  let asked = 0;              // positions asked for: only the last one asked is drawn
  const show = async () => {
    const mine = ++asked;
    let answer;
    try {
      answer = await api("/api/position", body(state.moves.slice(0, state.ply)));
    } catch (e) { if (mine === asked) toast(e.message); return; }
    if (mine !== asked) return;    // another game or move was chosen while this one was on its way
    view = answer;
    board.show(view);
    if ($("#players").value !== String(view.players)) $("#players").value = String(view.players);
    $("#where").textContent = `ply ${state.ply} of ${state.moves.length}` + (view.over ? `: ${view.result_text}` : view.to_move === "chance" ? ": chance to act" : `: ${view.mover_name} to move`);
    $("#history").innerHTML = `<span data-ply="0" class="${state.ply === 0 ? "current" : ""}">start</span> ` + state.moves.map((m, k) =>
      `<span data-ply="${k + 1}" class="${state.ply === k + 1 ? "current" : ""}">${escapeHtml(m)}</span>`).join(" ");
    $("#as").innerHTML = `<option value="">the mover</option>` + view.sides.map((s, k) => `<option value="${k}">${escapeHtml(s)}</option>`).join("");
    $("#chance").innerHTML = "";
    if (view.to_move === "chance") {
      $("#chance").innerHTML = (view.outcomes ? `<select id="outcome">${view.outcomes.map((o) => `<option>${escapeHtml(o.name)}</option>`).join("")}</select> <button id="take">Play this outcome</button> ` : "") + `<button id="random">A random outcome</button>`;
      if (view.outcomes) $("#take").addEventListener("click", () => playMove($("#outcome").value));
      $("#random").addEventListener("click", async () => {
        const r = await api("/api/position", Object.assign(body(state.moves.slice(0, state.ply)), {})).catch((e) => toast(e.message));
        if (!r) return;
        const pick = r.outcomes ? r.outcomes[Math.floor(Math.random() * r.outcomes.length)].name : null;
        if (pick) playMove(pick); else toast("type an outcome's name: there are too many to list");
      });
    }
    drawGraph();
  };
  const playMove = (name) => {
    state.moves = state.moves.slice(0, state.ply).concat([name]);
    state.ply++;
    state.values = state.values.slice(0, state.ply);
    show();
  };
  const analyse = () => {
    if (!view || view.over || view.to_move === "chance") { toast("there is nothing to analyse here"); return; }
    tag++;
    running = true;
    $("#lines").innerHTML = "";
    $("#lines").dataset.final = "";
    $("#info").textContent = "starting\u2026";
    ws.send(JSON.stringify(Object.assign(body(state.moves.slice(0, state.ply)), {op: "analyse", tag,
      engine: $("#engine").value, seconds: +$("#seconds").value, multipv: +$("#multipv").value,
      as: $("#as").value === "" ? null : +$("#as").value})));
  };
  // a move's name in words where the name alone is terse (m0@(1,0)o5, O4R, no)
  const moveWords = (name) => {
    const m = view && view.moves ? view.moves.find((x) => x.name === name) : null;
    return m && m.words ? `<div class="words">${escapeHtml(m.words)}</div>` : "";
  };
  const lines = (rows, final) => {
    const whose = view && typeof view.to_move === "number" ? ` for ${escapeHtml(view.sides[view.to_move])}` : "";
    $("#lines").innerHTML = `<tr><th>#</th><th>move</th><th>value${whose}</th><th>line</th></tr>` + rows.map((l, k) =>
      `<tr class="line"><td>${k + 1}</td><td>${escapeHtml(l.move)}${moveWords(l.move)}</td><td>${valueText(l.value, l.verdict)}</td><td class="pv">${escapeHtml((l.pv || []).join(" "))}</td></tr>`).join("");
    if (rows.length && view && view.moves) {
      const best = view.moves.find((m) => m.name === rows[0].move);
      board.mark("pv", best ? best.steps.map((s) => s[0]).filter(Boolean) : []);
    }
    $("#lines").dataset.final = final ? "1" : "";
  };
  const progressLines = {};
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.tag !== undefined && msg.tag !== null && msg.tag !== tag && msg.type !== "values" && msg.type !== "done") return;
    if (msg.type === "progress") {
      const p = msg.progress;
      $("#info").textContent = p.text;
      progressLines[p.line || 1] = {move: p.best || (p.pv && p.pv[0]) || "", value: p.value, verdict: p.verdict, pv: p.pv};
      lines(Object.keys(progressLines).sort().map((k) => progressLines[k]), false);
    } else if (msg.type === "result" || msg.type === "stopped") {
      running = false;
      for (const k of Object.keys(progressLines)) delete progressLines[k];
      if (msg.result) {
        const r = msg.result;
        $("#info").textContent = `${msg.type === "stopped" ? "stopped: " : ""}${r.engine}: ${r.move}, ${valueText(r.value, r.verdict)} \u00b7 ` +
          (r.iterations ? `${r.iterations.toLocaleString()} iterations` : `depth ${r.depth}, ${r.nodes.toLocaleString()} nodes`) + ` in ${r.seconds} s`;
        lines(r.lines, true);
      } else $("#info").textContent = "stopped before a result";
    } else if (msg.type === "values") {
      state.values[msg.index] = msg.values;
      drawGraph();
    } else if (msg.type === "done") {
      $("#graph").disabled = false;
    } else if (msg.type === "error") {
      running = false;
      $("#graph").disabled = false;
      toast(msg.error);
      $("#info").textContent = "";
    }
  };
  const drawGraph = () => {
    if (!view || !state.values.some((v) => v)) { $("#graphbox").innerHTML = ""; return; }
    const vals = [...Array(state.moves.length + 1).keys()].map((k) => state.values[k] || null);
    $("#graphbox").innerHTML = graphSvg(vals, view.sides, state.ply);
  };
  $("#graphbox").addEventListener("click", (e) => {
    const r = $("#graphbox").getBoundingClientRect();
    const k = Math.round((e.clientX - r.left - r.width * 24 / 600) / (r.width * 552 / 600) * Math.max(state.moves.length, 1));
    state.ply = Math.max(0, Math.min(state.moves.length, k));
    show();
  });
  $("#graph").addEventListener("click", () => {
    state.values = [];
    $("#graph").disabled = true;
    ws.send(JSON.stringify({op: "graph", tag: "graph", game: state.game, position: state.start || null,
      moves: state.moves, engine: $("#engine").value, seconds: +$("#graph-seconds").value}));
  });
  $("#go").addEventListener("click", analyse);
  $("#stop").addEventListener("click", () => ws.send(JSON.stringify({op: "stop"})));
  $("#history").addEventListener("click", (e) => {
    if (e.target.dataset.ply !== undefined) { state.ply = +e.target.dataset.ply; show(); }
  });
  $("#first").addEventListener("click", () => { state.ply = 0; show(); });
  $("#back").addEventListener("click", () => { state.ply = Math.max(0, state.ply - 1); show(); });
  $("#forward").addEventListener("click", () => { state.ply = Math.min(state.moves.length, state.ply + 1); show(); });
  $("#last").addEventListener("click", () => { state.ply = state.moves.length; show(); });
  $("#play").addEventListener("click", () => { if ($("#typed").value.trim()) playMove($("#typed").value.trim()); $("#typed").value = ""; });
  $("#game").addEventListener("change", () => { state.game = $("#game").value; state.players = null; state.start = ""; state.moves = []; state.ply = 0; state.values = []; $("#position").value = ""; fillPlayers(); show(); });
  $("#players").addEventListener("change", () => { state.players = +$("#players").value; state.start = ""; state.moves = []; state.ply = 0; state.values = []; $("#position").value = ""; show(); });
  $("#fresh").addEventListener("click", () => { state.start = ""; state.moves = []; state.ply = 0; state.values = []; $("#position").value = ""; show(); });
  $("#load").addEventListener("click", () => { state.start = $("#position").value.trim(); state.moves = []; state.ply = 0; state.values = []; show(); });
  leave = () => ws.close();
  fillPlayers();
  ws.onopen = () => show();
  void running;
}

// ------------------------------------------------------------------------- Tournaments
async function pageTournaments() {
  main.innerHTML = `<h2>Tournaments</h2><div class="panel" id="list">loading\u2026</div>`;
  try {
    const list = await api("/api/tournaments");
    main.querySelector("#list").innerHTML = list.length ? `<table><tr><th>database</th><th>game</th><th>engines</th><th>games</th></tr>` +
      list.map((t) => `<tr><td><a href="#/tournament/${encodeURIComponent(t.name)}">${escapeHtml(t.name)}</a></td>
        <td>${escapeHtml(t.title || "")}</td><td>${escapeHtml((t.engines || []).join(", ") || t.error || "")}</td>
        <td>${t.stored === undefined ? "" : `${t.stored} of ${t.scheduled}`}</td></tr>`).join("") + "</table>"
      : "No tournament databases in the folder yet: <code>roost tournament GAME --db FOLDER/NAME.db</code> writes one.";
  } catch (e) { main.querySelector("#list").textContent = e.message; }
}

function pageTournament(name) {
  main.innerHTML = `<h2>Tournament ${escapeHtml(name)}</h2><div id="summary" class="panel">loading\u2026</div>
    <div class="row"><div class="panel wide"><h3>Ratings</h3><div id="ratings"></div><div id="plot"></div></div>
    <div class="panel wide"><h3>Crosstable</h3><div id="cross"></div></div></div>
    <div class="panel"><h3>Being played</h3><div id="live"></div></div>
    <div class="panel"><h3>Games</h3><div id="games"></div></div>`;
  const $ = (s) => main.querySelector(s);
  const playing = (games) => {
    $("#live").innerHTML = games.length ? games.map((g) =>
      `<div><a href="#/follow/${encodeURIComponent(name)}/${encodeURIComponent(g.id)}">game ${escapeHtml(g.id)}</a>: ${escapeHtml(g.seats.join(" vs "))}, ${g.moves.length} plies so far</div>`).join("")
      : `<span class="muted">no game is being played now</span>`;
  };
  const live = socket(`/api/tournaments/${encodeURIComponent(name)}/live`);
  live.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "error") { $("#summary").textContent = msg.error; return; }
    if (msg.type === "in_progress") { playing(msg.games); return; }
    const t = msg.tournament;
    const names = t.names;
    $("#summary").innerHTML = `${escapeHtml(t.title)}, ${t.config.players} seats, ${t.config.mode === "gauntlet" ? "gauntlet" : "round robin"}:
      <b id="count">${t.stored}</b> of ${t.scheduled} games stored${t.finished ? " (complete)" : ""}${t.config.tc ? `, clocks ${escapeHtml(t.config.tc)}` : ""}`;
    $("#ratings").innerHTML = `<table id="ratings-table"><tr><th>rank</th><th>engine</th><th>Elo</th><th>\u00b195%</th><th>score</th><th>games</th><th>won</th><th>drawn</th><th>lost</th></tr>` +
      t.engines.map((r) => `<tr><td>${r.rank}</td><td>${escapeHtml(r.name)}</td><td>${r.elo === null ? "-" : Math.round(r.elo) === 0 ? "0" : (r.elo > 0 ? "+" : "") + r.elo.toFixed(0)}</td>
        <td>${r.index === 0 && t.anchor === r.name ? "anchor" : r.elo_error95 === null ? "-" : r.elo_error95.toFixed(0)}</td><td>${r.score}</td><td>${r.games}</td><td>${r.wins}</td><td>${r.draws}</td><td>${r.losses}</td></tr>`).join("") + "</table>" +
      (t.rating_note ? `<p class="muted">${escapeHtml(t.rating_note)}</p>` : "");
    $("#plot").innerHTML = t.ratings_picture || "";
    const order = t.engines.map((r) => r.index);
    $("#cross").innerHTML = `<table id="crosstable"><tr><th></th>${order.map((i, k) => `<th title="${escapeHtml(names[i])}">${k + 1}</th>`).join("")}</tr>` +
      order.map((i, k) => `<tr><th>${k + 1}. ${escapeHtml(names[i])}</th>${order.map((j) => {
        const c = t.crosstable[i][j];
        return `<td>${i === j ? "-" : c ? `${c.score}/${c.games}` : "."}</td>`;
      }).join("")}</tr>`).join("") + "</table><p class=\"muted\">the row engine's pairwise score against the column engine</p>";
    playing(t.in_progress);
    $("#games").innerHTML = `<table id="games-table"><tr><th>game</th><th>seats</th><th>result</th><th>plies</th><th>seconds</th><th>ending</th></tr>` +
      t.games.slice().reverse().map((g) => `<tr><td><a href="#/replay/${encodeURIComponent(name)}/${g.id}">${g.id}</a></td>
        <td>${escapeHtml(g.seats.join(" vs "))}</td><td>${g.result.join(" ")}</td><td>${g.plies}</td><td>${g.seconds}</td>
        <td>${escapeHtml(g.ending || "played out")}</td></tr>`).join("") + "</table>";
  };
  leave = () => live.close();
}

// ---------------------------------------------------------------- Replay and following
function pageReplay(name, gid, following) {
  main.innerHTML = `<h2>${following ? "Following" : "Replay of"} game ${escapeHtml(gid)} of ${escapeHtml(name)}</h2><div class="row">
    <div class="wide panel"><div id="head"></div>
      <div class="steps"><button id="first">|&lt;</button> <button id="back">&lt;</button>
        <button id="forward">&gt;</button> <button id="last">&gt;|</button> <span id="where"></span>
        <button id="analyse">Analyse from here</button></div>
      <div id="board"></div></div>
    <div class="side"><div class="panel"><h3>Moves</h3><div class="history" id="history"></div></div>
      <div class="panel"><h3>Evaluation graph</h3><label>engine <input id="engine" type="text" value="auto" size="14"></label>
        <label>seconds <input id="graph-seconds" type="number" value="0.1" step="0.05" min="0.01" style="width:60px"></label>
        <button id="graph">Draw the graph</button><div class="graph" id="graphbox"></div></div></div></div>`;
  const $ = (s) => main.querySelector(s);
  const board = new Board($("#board"));
  let rec = null, ply = 0, values = [], ws = null, live = null;
  const show = async () => {
    if (!rec) return;
    let view;
    try { view = await api("/api/position", {game: rec.game, position: rec.start, moves: rec.moves.slice(0, ply)}); }
    catch (e) { toast(e.message); return; }
    board.show(view, {interactive: false});
    const who = ply === 0 ? "start" : rec.movers[ply - 1] === -1 ? "chance" : `${rec.sides[rec.movers[ply - 1]]} (${rec.seats[rec.movers[ply - 1]]})`;
    $("#where").textContent = `ply ${ply} of ${rec.moves.length}` + (ply ? `: ${who} played ${rec.moves[ply - 1]}` + (rec.movers[ply - 1] !== -1 ? ` in ${(1000 * rec.times[ply - 1]).toFixed(0)} ms` : "") : "");
    $("#history").innerHTML = `<span data-ply="0" class="${ply === 0 ? "current" : ""}">start</span> ` + rec.moves.map((m, k) =>
      `<span data-ply="${k + 1}" class="${ply === k + 1 ? "current" : ""}">${escapeHtml(m)}</span>`).join(" ");
    if (values.some((v) => v)) $("#graphbox").innerHTML = graphSvg([...Array(rec.moves.length + 1).keys()].map((k) => values[k] || null), rec.sides, ply);
  };
  const header = () => {
    $("#head").innerHTML = `<div class="${rec.live ? "banner" : "banner over"}" id="result">${escapeHtml(rec.seats.map((s, k) => `${rec.sides[k]}: ${s}`).join(", "))}: ` +
      (rec.live ? "being played" : `${escapeHtml(rec.result_text || rec.result.join(" "))}${rec.ending ? " \u2014 " + escapeHtml(rec.ending) : ""}`) + "</div>";
  };
  const load = async () => {
    try { rec = await api(`/api/tournaments/${encodeURIComponent(name)}/games/${encodeURIComponent(gid)}`); }
    catch (e) { toast(e.message); return; }
    header(); show();
  };
  if (following) {
    live = socket(`/api/tournaments/${encodeURIComponent(name)}/live`);
    live.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      const games = msg.type === "tournament" ? msg.tournament.in_progress : msg.type === "in_progress" ? msg.games : null;
      if (!games) return;
      const g = games.find((x) => String(x.id) === String(gid));
      if (g) {
        const atEnd = !rec || ply === rec.moves.length;
        rec = g; header();
        if (atEnd) ply = rec.moves.length;
        show();
      } else if (rec && rec.live) {
        location.hash = `#/replay/${encodeURIComponent(name)}/${encodeURIComponent(gid)}`;   // it has finished
      }
    };
  } else load();
  $("#history").addEventListener("click", (e) => { if (e.target.dataset.ply !== undefined) { ply = +e.target.dataset.ply; show(); } });
  $("#first").addEventListener("click", () => { ply = 0; show(); });
  $("#back").addEventListener("click", () => { ply = Math.max(0, ply - 1); show(); });
  $("#forward").addEventListener("click", () => { ply = Math.min(rec.moves.length, ply + 1); show(); });
  $("#last").addEventListener("click", () => { ply = rec.moves.length; show(); });
  $("#analyse").addEventListener("click", () => {
    sessionStorage.setItem("analyse", JSON.stringify({game: rec.game, position: rec.start, moves: rec.moves.slice(0, ply)}));
    location.hash = "#/analyse";
  });
  $("#graph").addEventListener("click", () => {
    if (!rec) return;
    if (!ws) {
      ws = socket("/api/analyse");
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "values") { values[msg.index] = msg.values; show(); }
        else if (msg.type === "error") toast(msg.error);
        else if (msg.type === "done") $("#graph").disabled = false;
      };
    }
    values = [];
    $("#graph").disabled = true;
    const send = () => ws.send(JSON.stringify({op: "graph", game: rec.game, position: rec.start, moves: rec.moves,
      engine: $("#engine").value, seconds: +$("#graph-seconds").value}));
    if (ws.readyState === 1) send(); else ws.onopen = send;
  });
  leave = () => { if (ws) ws.close(); if (live) live.close(); };
}

// ------------------------------------------------------------------------------ routing
async function route() {
  leave();
  leave = () => {};
  const [path, query] = (location.hash.slice(1) || "/play").split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  for (const a of document.querySelectorAll("header nav a")) {
    a.classList.toggle("active", a.dataset.page === (parts[0] === "replay" || parts[0] === "tournament" || parts[0] === "follow" ? "tournaments" : parts[0]));
  }
  if (parts[0] === "play" && parts[1]) pageGame(parts[1]);
  else if (parts[0] === "analyse") pageAnalyse(params);
  else if (parts[0] === "tournaments") pageTournaments();
  else if (parts[0] === "tournament") pageTournament(parts[1]);
  else if (parts[0] === "replay") pageReplay(parts[1], parts[2], false);
  else if (parts[0] === "follow") pageReplay(parts[1], parts[2], true);
  else pagePlay(params);
}

(async () => {
  try {
    GAMES = await api("/api/games");
    const limits = await api("/api/limits");
    document.getElementById("status").textContent = `searches up to ${limits.seconds} s, ${limits.memory_mb} MB`;
    if (!limits.tournaments) document.querySelector('header nav a[data-page="tournaments"]').hidden = true;
  } catch (e) { main.textContent = "The server does not answer: " + e.message; return; }
  window.addEventListener("hashchange", route);
  route();
})();
