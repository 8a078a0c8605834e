// The page: start the wasm client, make this browser's key, draw the board.
// The key is made and kept inside the wasm (crypto/rand = getRandomValues);
// this script only ever sees its peer ID.
"use strict";

// The page's few strings in the terminal's seven languages.
const strings = {
  en: { loading: "Starting…", ready: "Your key is made; it never leaves this browser.", noclient: "This aeroplane was built without its web client.", failed: "The client did not start: ", over: "Game over: ", save: "Save the game log", tap: "Your move: tap a shining plane.", name: "Your name", sit: "Sit down", imready: "I'm ready", notready: "Not ready after all", pick: "Pick a colour:", table: "The table:", bot: "bot", web: "on a phone", chatph: "Say something", say: "Say", leave: "Leave the game", left: "You left the game: a bot flies your seat.", moveq: "Is the laptop that served this page gone? Play on through another laptop at the table:", moveph: "its address, as its screen shows it", movego: "Play on there" },
  el: { loading: "Εκκίνηση…", ready: "Το κλειδί σας δημιουργήθηκε· δεν φεύγει ποτέ από αυτόν τον περιηγητή.", noclient: "Αυτό το aeroplane χτίστηκε χωρίς τον πελάτη ιστού του.", failed: "Ο πελάτης δεν ξεκίνησε: ", over: "Τέλος παιχνιδιού: ", save: "Αποθήκευση του αρχείου παιχνιδιού", tap: "Η σειρά σας: αγγίξτε ένα αεροπλάνο που λάμπει.", name: "Το όνομά σας", sit: "Καθίστε", imready: "Είμαι έτοιμος", notready: "Τελικά όχι έτοιμος", pick: "Διαλέξτε χρώμα:", table: "Το τραπέζι:", bot: "μποτ", web: "σε κινητό", chatph: "Πείτε κάτι", say: "Πείτε", leave: "Αποχώρηση από το παιχνίδι", left: "Αποχωρήσατε: ένα μποτ παίζει τη θέση σας.", moveq: "Χάθηκε ο υπολογιστής που σερβίρει αυτή τη σελίδα; Συνεχίστε μέσω άλλου υπολογιστή του τραπεζιού:", moveph: "η διεύθυνσή του, όπως τη δείχνει η οθόνη του", movego: "Συνέχεια εκεί" },
  hi: { loading: "शुरू हो रहा है…", ready: "आपकी कुंजी बन गई है; यह इस ब्राउज़र से कभी बाहर नहीं जाती।", noclient: "यह aeroplane अपने वेब क्लाइंट के बिना बनाया गया है।", failed: "क्लाइंट शुरू नहीं हुआ: ", over: "खेल समाप्त: ", save: "खेल का लॉग सहेजें", tap: "आपकी चाल: चमकते हुए विमान को छुएँ।", name: "आपका नाम", sit: "बैठें", imready: "मैं तैयार हूँ", notready: "अभी तैयार नहीं", pick: "एक रंग चुनें:", table: "मेज़:", bot: "बॉट", web: "फ़ोन पर", chatph: "कुछ कहें", say: "कहें", leave: "खेल छोड़ें", left: "आपने खेल छोड़ दिया: आपकी जगह एक बॉट खेलता है।", moveq: "क्या यह पेज देने वाला लैपटॉप बंद हो गया? मेज़ के किसी दूसरे लैपटॉप से खेलते रहें:", moveph: "उसका पता, जैसा उसकी स्क्रीन दिखाती है", movego: "वहाँ से खेलें" },
  it: { loading: "Avvio…", ready: "La tua chiave è pronta; non lascia mai questo browser.", noclient: "Questo aeroplane è stato compilato senza il client web.", failed: "Il client non è partito: ", over: "Partita finita: ", save: "Salva il registro della partita", tap: "Tocca a te: tocca un aereo che brilla.", name: "Il tuo nome", sit: "Siediti", imready: "Sono pronto", notready: "Non ancora pronto", pick: "Scegli un colore:", table: "Il tavolo:", bot: "bot", web: "da telefono", chatph: "Scrivi qualcosa", say: "Invia", leave: "Lascia la partita", left: "Hai lasciato la partita: un bot gioca al tuo posto.", moveq: "Il portatile che ha servito questa pagina non c'è più? Continua tramite un altro portatile del tavolo:", moveph: "il suo indirizzo, come lo mostra il suo schermo", movego: "Continua lì" },
  pt: { loading: "A iniciar…", ready: "A sua chave foi criada; nunca sai deste navegador.", noclient: "Este aeroplane foi compilado sem o cliente web.", failed: "O cliente não arrancou: ", over: "Fim do jogo: ", save: "Guardar o registo do jogo", tap: "A sua vez: toque num avião que brilha.", name: "O seu nome", sit: "Sentar-se", imready: "Estou pronto", notready: "Afinal não estou pronto", pick: "Escolha uma cor:", table: "A mesa:", bot: "bot", web: "num telemóvel", chatph: "Diga algo", say: "Enviar", leave: "Sair do jogo", left: "Saiu do jogo: um bot joga no seu lugar.", moveq: "O portátil que serviu esta página desapareceu? Continue através de outro portátil da mesa:", moveph: "o seu endereço, como o ecrã dele o mostra", movego: "Continuar lá" },
  ru: { loading: "Запуск…", ready: "Ваш ключ создан; он никогда не покидает этот браузер.", noclient: "Этот aeroplane собран без веб-клиента.", failed: "Клиент не запустился: ", over: "Игра окончена: ", save: "Сохранить журнал игры", tap: "Ваш ход: коснитесь светящегося самолёта.", name: "Ваше имя", sit: "Сесть за стол", imready: "Я готов", notready: "Пока не готов", pick: "Выберите цвет:", table: "Стол:", bot: "бот", web: "с телефона", chatph: "Напишите что-нибудь", say: "Отправить", leave: "Покинуть игру", left: "Вы покинули игру: за вас играет бот.", moveq: "Ноутбук, с которого открыта эта страница, пропал? Продолжайте через другой ноутбук за столом:", moveph: "его адрес, как он показан на его экране", movego: "Продолжить там" },
  zh: { loading: "正在启动…", ready: "你的密钥已生成，它永远不会离开这个浏览器。", noclient: "这个 aeroplane 构建时没有包含网页客户端。", failed: "客户端未能启动：", over: "游戏结束：", save: "保存对局记录", tap: "轮到你了：点一下发光的飞机。", name: "你的名字", sit: "入座", imready: "我准备好了", notready: "还没准备好", pick: "选择颜色：", table: "牌桌：", bot: "机器人", web: "手机上", chatph: "说点什么", say: "发送", leave: "离开游戏", left: "你已离开游戏：由机器人接替你的座位。", moveq: "提供这个页面的电脑不见了？通过牌桌上的另一台电脑继续：", moveph: "它的地址，如它的屏幕所示", movego: "在那里继续" },
};
const lang = (navigator.languages || [navigator.language || "en"]).map(l => l.slice(0, 2)).find(l => strings[l]) || "en";
const t = strings[lang];
document.documentElement.lang = lang;

// Timings of the start, read by the benchmark: ms since navigation start.
window.aeroplaneTimes = {};
const status = document.getElementById("status");
function say(state, text) { document.body.dataset.state = state; status.textContent = text; }
say("loading", t.loading);

const svgNS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

// draw lays the 52 track squares on a ring, a hangar in each colour's
// corner, and every plane where the engine says it is.
function draw(board) {
  const svg = document.getElementById("board");
  svg.replaceChildren();
  const at = a => { const th = (a / 52) * 2 * Math.PI - Math.PI / 2; return [Math.cos(th) * 88, Math.sin(th) * 88]; };
  for (let a = 0; a < 52; a++) {
    const [x, y] = at(a);
    el("circle", { cx: x, cy: y, r: 5, class: "sq " + board.track[a], "data-square": a }, svg);
  }
  const corner = { R: [-1, -1], B: [1, -1], Y: [1, 1], G: [-1, 1] };
  const hangarSlot = {};
  for (const p of board.planes) {
    const [cx, cy] = corner[p.colour];
    let x, y;
    if (p.square >= 0) { [x, y] = at(p.square); }
    else {
      if (!hangarSlot[p.colour]) { hangarSlot[p.colour] = true; el("rect", { x: cx * 60 - 14, y: cy * 60 - 14, width: 28, height: 28, rx: 4, class: "hangar " + p.colour }, svg); }
      x = cx * 60 + (p.index % 2 ? 6 : -6); y = cy * 60 + (p.index < 2 ? -6 : 6);
    }
    el("circle", { cx: x, cy: y, r: 4, class: "plane " + p.colour, "data-plane": p.colour + p.index, "data-place": p.place }, svg);
  }
  markMovable();
}

// offerMoves lets the player tap one of the planes that may move; a roll
// with one outcome only (a single plane, a pass, the third six) is played
// at once, as on the terminal.
let pending = null; // the moves the player may tap, null when none
function offerMoves(moves) {
  if (moves.length === 1) { aeroplane.choose(moves[0]); return; }
  pending = moves;
  document.body.dataset.yourMove = moves.join(" ");
  status.textContent = t.tap;
  markMovable();
}

// markMovable makes the pending moves' planes tappable (again after a redraw).
function markMovable() {
  if (!pending) return;
  for (const m of pending) {
    const plane = document.querySelector(`[data-plane="${m}"]`);
    if (!plane) continue;
    plane.classList.add("movable");
    plane.addEventListener("click", () => {
      if (!pending) return;
      pending = null;
      document.querySelectorAll(".movable").forEach(p => p.classList.remove("movable"));
      document.body.dataset.yourMove = "";
      aeroplane.choose(m);
    });
  }
}

// saveLink offers the game's log as a file, for `aeroplane verify`.
function saveLink() {
  const b64 = aeroplane.exportLog();
  if (!b64) return;
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  a.download = "aeroplane-" + (document.body.dataset.history || "left").slice(0, 12) + ".log";
  a.id = "savelog";
  a.textContent = t.save;
  document.querySelector("footer").appendChild(a);
}

// The serving program's table, until the game starts: the person sits
// down under a name, picks a colour, says ready; the table, as the
// serving program's lobby says it, lists everyone (a web player too).
let myId = "";
let meReady = false;
function setupTable() {
  document.getElementById("name").placeholder = t.name;
  document.getElementById("name").value = localStorage.getItem("aeroplane.name") || "";
  document.getElementById("sit").textContent = t.sit;
  document.getElementById("pick").textContent = t.pick;
  document.getElementById("tabletitle").textContent = t.table;
  document.getElementById("sitform").addEventListener("submit", ev => {
    ev.preventDefault();
    const name = document.getElementById("name").value.trim();
    if (!name) return;
    localStorage.setItem("aeroplane.name", name);
    aeroplane.sit(name);
  });
  document.getElementById("readybtn").addEventListener("click", () => aeroplane.ready(!meReady));
  for (const b of document.querySelectorAll("#colours button")) b.addEventListener("click", () => aeroplane.colour(b.dataset.colour));
}
function showTable(json) {
  const tb = JSON.parse(json);
  if (document.body.dataset.game !== "playing") document.body.dataset.game = "table";
  document.getElementById("table").hidden = false;
  document.getElementById("tableerror").textContent = tb.error || "";
  if (tb.error) { document.body.dataset.tableError = tb.error; return; }
  const me = (tb.players || []).find(p => p.id === myId);
  meReady = !!(me && me.ready);
  document.body.dataset.seated = me ? me.colour : "";
  document.body.dataset.ready = meReady ? "yes" : "no";
  document.getElementById("sitform").hidden = !!me;
  document.getElementById("seatctl").hidden = !me;
  if (me) document.getElementById("chat").hidden = false;
  document.getElementById("readybtn").textContent = meReady ? t.notready : t.imready;
  const list = document.getElementById("players");
  list.replaceChildren();
  for (const p of tb.players || []) {
    const li = document.createElement("li");
    li.className = "seat " + p.colour;
    li.textContent = p.name + (p.web ? " (" + t.web + ")" : "") + (p.ready ? " ✓" : "");
    list.appendChild(li);
  }
  for (const c of tb.bots || []) {
    const li = document.createElement("li");
    li.className = "seat " + c;
    li.textContent = t.bot;
    list.appendChild(li);
  }
}

// The table's chat, at the table and in the game: each line under its
// speaker's name, in its colour.
function setupChat() {
  document.getElementById("chatline").placeholder = t.chatph;
  document.getElementById("chatsay").textContent = t.say;
  document.getElementById("chatform").addEventListener("submit", ev => {
    ev.preventDefault();
    const box = document.getElementById("chatline");
    const text = box.value.trim();
    if (text && aeroplane.say(text) === true) box.value = "";
  });
}
function showChat(from, colour, text) {
  const li = document.createElement("li");
  li.className = "seat " + colour;
  const who = document.createElement("b");
  who.textContent = from + ": ";
  li.append(who, text);
  const log = document.getElementById("chatlog");
  log.appendChild(li);
  while (log.children.length > 50) log.firstChild.remove();
  document.getElementById("chat").hidden = false;
}

// A web player whose serving laptop is gone plays on through another
// laptop at the table: the page dials that laptop's game socket and moves
// its seat there on its key's own word (the key stays in this page).
function setupMove() {
  document.getElementById("moveq").textContent = t.moveq;
  document.getElementById("movehost").placeholder = t.moveph;
  document.getElementById("movego").textContent = t.movego;
  document.getElementById("moveform").addEventListener("submit", ev => {
    ev.preventDefault();
    const r = aeroplane.moveTo(document.getElementById("movehost").value);
    document.body.dataset.moveError = r === true ? "" : r.error;
    if (r === true) document.body.dataset.movedTo = document.getElementById("movehost").value.trim();
  });
}

window.aeroplaneReady = () => {
  window.aeroplaneTimes.wasm = performance.now();
  const id = aeroplane.newKey();
  if (typeof id !== "string") { say("error", t.failed + id.error); return; }
  window.aeroplaneTimes.key = performance.now();
  document.getElementById("key").textContent = id;
  myId = id;
  setupTable();
  setupChat();
  const board = JSON.parse(aeroplane.board(aeroplane.start("RBYG")));
  draw(board);
  window.aeroplaneTimes.board = performance.now();
  say("board", t.ready);
  // Sit at the serving program's table, if it has one for this browser.
  document.body.dataset.game = "joining";
  const leave = document.getElementById("leave");
  leave.textContent = t.leave;
  leave.addEventListener("click", () => { if (aeroplane.leave() === true) { leave.hidden = true; document.body.dataset.left = "yes"; } });
  setupMove();
  aeroplane.play(json => {
    document.body.dataset.game = "playing";
    document.getElementById("moveform").hidden = false;
    document.getElementById("table").hidden = true;
    leave.hidden = document.body.dataset.left === "yes";
    draw(JSON.parse(json));
  }, end => {
    document.body.dataset.yourMove = "";
    document.getElementById("moveform").hidden = true;
    leave.hidden = true;
    if (end.left) { document.body.dataset.game = "left"; status.textContent = t.left; saveLink(); return; }
    if (end.error) { document.body.dataset.game = "none"; document.body.dataset.gameError = end.error; return; }
    document.body.dataset.history = end.history;
    document.body.dataset.ranking = end.ranking.join("");
    document.body.dataset.game = end.phase;
    status.textContent = t.over + end.ranking.join(" ");
    saveLink();
  }, offerMoves, showTable, showChat);
};

(async () => {
  if (typeof Go === "undefined") { say("error", t.noclient); return; }
  try {
    const go = new Go();
    const res = await fetch("/client.wasm");
    if (!res.ok) { say("error", t.noclient); return; }
    const { instance } = await WebAssembly.instantiateStreaming(res, go.importObject);
    go.run(instance);
  } catch (err) {
    say("error", t.failed + err);
  }
})();
