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
// The page's notices and refusals of its own (the serving program's
// refusals come translated from it): one line per language, like strings.
const notices = {
  en: { rematch: "Play again", langlabel: "Language", notkept: "This browser can no longer keep the game: a reload would lose your seat.", "end.noseat": "The table's game has no seat for you: wait for the next one.", "end.closed": "The program that served this page closed the connection: reload the page to sit down again.", "end.restore": "The game kept in this browser could not be taken up again: a bot flies your seat.", "end.suspended": "This game is open in another tab of this browser: play there.", "end.failed": "The game stopped: " },
  el: { rematch: "Ξανά παιχνίδι", langlabel: "Γλώσσα", notkept: "Αυτός ο περιηγητής δεν μπορεί πια να κρατά το παιχνίδι: μια επαναφόρτωση θα σας έχανε τη θέση.", "end.noseat": "Το παιχνίδι του τραπεζιού δεν έχει θέση για εσάς: περιμένετε το επόμενο.", "end.closed": "Το πρόγραμμα που σέρβιρε αυτή τη σελίδα έκλεισε τη σύνδεση: φορτώστε ξανά τη σελίδα για να καθίσετε πάλι.", "end.restore": "Το παιχνίδι που κρατήθηκε σε αυτόν τον περιηγητή δεν μπόρεσε να συνεχιστεί: ένα μποτ παίζει τη θέση σας.", "end.suspended": "Αυτό το παιχνίδι είναι ανοιχτό σε άλλη καρτέλα αυτού του περιηγητή: παίξτε εκεί.", "end.failed": "Το παιχνίδι σταμάτησε: " },
  hi: { rematch: "फिर से खेलें", langlabel: "भाषा", notkept: "यह ब्राउज़र अब खेल को सहेज नहीं सकता: पेज फिर से लोड करने पर आपकी जगह चली जाएगी।", "end.noseat": "मेज़ के खेल में आपके लिए कोई जगह नहीं है: अगले खेल की प्रतीक्षा करें।", "end.closed": "इस पेज को देने वाले प्रोग्राम ने कनेक्शन बंद कर दिया: फिर से बैठने के लिए पेज दोबारा लोड करें।", "end.restore": "इस ब्राउज़र में सहेजा गया खेल फिर से शुरू नहीं हो सका: आपकी जगह एक बॉट खेलता है।", "end.suspended": "यह खेल इस ब्राउज़र के दूसरे टैब में खुला है: वहीं खेलें।", "end.failed": "खेल रुक गया: " },
  it: { rematch: "Gioca ancora", langlabel: "Lingua", notkept: "Questo browser non riesce più a conservare la partita: ricaricando perderesti il posto.", "end.noseat": "La partita del tavolo non ha un posto per te: aspetta la prossima.", "end.closed": "Il programma che ha servito questa pagina ha chiuso la connessione: ricarica la pagina per sederti di nuovo.", "end.restore": "La partita conservata in questo browser non si è potuta riprendere: un bot gioca al tuo posto.", "end.suspended": "Questa partita è aperta in un'altra scheda di questo browser: gioca lì.", "end.failed": "La partita si è fermata: " },
  pt: { rematch: "Jogar outra vez", langlabel: "Língua", notkept: "Este navegador já não consegue guardar o jogo: recarregar faria perder o seu lugar.", "end.noseat": "O jogo da mesa não tem lugar para si: espere pelo próximo.", "end.closed": "O programa que serviu esta página fechou a ligação: recarregue a página para se sentar de novo.", "end.restore": "O jogo guardado neste navegador não pôde ser retomado: um bot joga no seu lugar.", "end.suspended": "Este jogo está aberto noutro separador deste navegador: jogue lá.", "end.failed": "O jogo parou: " },
  ru: { rematch: "Сыграть ещё", langlabel: "Язык", notkept: "Этот браузер больше не может хранить игру: после перезагрузки вы потеряете место.", "end.noseat": "В игре этого стола нет места для вас: дождитесь следующей.", "end.closed": "Программа, открывшая эту страницу, закрыла соединение: перезагрузите страницу, чтобы снова сесть.", "end.restore": "Игру, сохранённую в этом браузере, не удалось продолжить: за вас играет бот.", "end.suspended": "Эта игра открыта в другой вкладке этого браузера: играйте там.", "end.failed": "Игра остановилась: " },
  zh: { rematch: "再来一局", langlabel: "语言", notkept: "这个浏览器已无法保存对局：重新加载会失去你的座位。", "end.noseat": "这桌的对局没有你的座位：请等下一局。", "end.closed": "提供本页面的程序关闭了连接：请重新加载页面再入座。", "end.restore": "这个浏览器里保存的对局无法继续：由机器人接替你的座位。", "end.suspended": "这局游戏已在本浏览器的另一个标签页中打开：请在那里玩。", "end.failed": "游戏中止：" },
};
// The event log's lines (web/client's EventLines: a key, the colour it is
// about as {c}, its args as {0}, {1}…) and the dice panel, one line per
// language like strings.
const events = {
  en: { started: "{c} rolls first.", rolled: "{c} rolled {0}", moved: "{c} moved to {0}", taxi: "{c} taxied to the launch area", home: "{c} brought a plane home", pass: "{c} rolled {0}: no move", penalty: "{c} rolled a third six: back to the hangar", turn: "The dice pass to {c}", absent: "{c} is absent: a bot flies the seat", back: "{c} is back", left: "{c} left: a bot flies the seat", over: "Game over: {0}", rolls: "{0} rolls", "c.R": "Red", "c.B": "Blue", "c.Y": "Yellow", "c.G": "Green" },
  el: { started: "Πρώτος ρίχνει ο {c}.", rolled: "{c} έφερε {0}", moved: "{c} πήγε στο {0}", taxi: "{c} βγήκε στην περιοχή απογείωσης", home: "{c} έφερε ένα αεροπλάνο στο σπίτι", pass: "{c} έφερε {0}: καμία κίνηση", penalty: "{c} έφερε τρίτο εξάρι: πίσω στο υπόστεγο", turn: "Τα ζάρια περνούν στον {c}", absent: "{c} λείπει: ένα μποτ παίζει τη θέση", back: "{c} επέστρεψε", left: "{c} έφυγε: ένα μποτ παίζει τη θέση", over: "Τέλος παιχνιδιού: {0}", rolls: "{0} ζαριές", "c.R": "Κόκκινος", "c.B": "Μπλε", "c.Y": "Κίτρινος", "c.G": "Πράσινος" },
  hi: { started: "{c} पहले फेंकता है।", rolled: "{c} ने {0} फेंका", moved: "{c} {0} पर गया", taxi: "{c} उड़ान क्षेत्र में पहुँचा", home: "{c} ने एक विमान घर पहुँचाया", pass: "{c} ने {0} फेंका: कोई चाल नहीं", penalty: "{c} ने तीसरा छक्का फेंका: वापस हैंगर में", turn: "पासा {c} के पास जाता है", absent: "{c} अनुपस्थित है: एक बॉट उसकी जगह खेलता है", back: "{c} वापस आ गया", left: "{c} चला गया: एक बॉट उसकी जगह खेलता है", over: "खेल समाप्त: {0}", rolls: "{0} बार फेंका", "c.R": "लाल", "c.B": "नीला", "c.Y": "पीला", "c.G": "हरा" },
  it: { started: "{c} tira per primo.", rolled: "{c} ha tirato {0}", moved: "{c} è andato al {0}", taxi: "{c} è uscito sulla pista di decollo", home: "{c} ha portato un aereo a casa", pass: "{c} ha tirato {0}: nessuna mossa", penalty: "{c} ha tirato il terzo sei: torna all'hangar", turn: "I dadi passano a {c}", absent: "{c} è assente: un bot gioca al suo posto", back: "{c} è tornato", left: "{c} se n'è andato: un bot gioca al suo posto", over: "Partita finita: {0}", rolls: "{0} tiri", "c.R": "Rosso", "c.B": "Blu", "c.Y": "Giallo", "c.G": "Verde" },
  pt: { started: "{c} lança primeiro.", rolled: "{c} tirou {0}", moved: "{c} foi para a casa {0}", taxi: "{c} saiu para a área de descolagem", home: "{c} levou um avião para casa", pass: "{c} tirou {0}: sem jogada", penalty: "{c} tirou o terceiro seis: de volta ao hangar", turn: "Os dados passam para {c}", absent: "{c} está ausente: um bot joga no seu lugar", back: "{c} voltou", left: "{c} saiu: um bot joga no seu lugar", over: "Fim do jogo: {0}", rolls: "{0} lançamentos", "c.R": "Vermelho", "c.B": "Azul", "c.Y": "Amarelo", "c.G": "Verde" },
  ru: { started: "{c} бросает первым.", rolled: "{c}: выпало {0}", moved: "{c} пошёл на {0}", taxi: "{c} вырулил на старт", home: "{c} привёл самолёт домой", pass: "{c}: выпало {0}, ходов нет", penalty: "{c}: третья шестёрка, назад в ангар", turn: "Кубик переходит к: {c}", absent: "{c} отсутствует: за него играет бот", back: "{c} вернулся", left: "{c} ушёл: за него играет бот", over: "Игра окончена: {0}", rolls: "бросков: {0}", "c.R": "Красный", "c.B": "Синий", "c.Y": "Жёлтый", "c.G": "Зелёный" },
  zh: { started: "{c}先掷。", rolled: "{c}掷出 {0}", moved: "{c}走到 {0}", taxi: "{c}滑行到起飞区", home: "{c}把一架飞机送回了家", pass: "{c}掷出 {0}：无棋可走", penalty: "{c}掷出第三个六：回到机库", turn: "轮到{c}掷骰", absent: "{c}不在：由机器人代打", back: "{c}回来了", left: "{c}离开了：由机器人代打", over: "游戏结束：{0}", rolls: "共 {0} 次", "c.R": "红方", "c.B": "蓝方", "c.Y": "黄方", "c.G": "绿方" },
};
const langNames = { en: "English", el: "Ελληνικά", hi: "हिन्दी", it: "Italiano", pt: "Português", ru: "Русский", zh: "中文" };

// chosenLanguage is the one the person picked on this page before (kept in
// localStorage), else the browser's, else English.
function chosenLanguage() {
  const kept = localStorage.getItem("aeroplane.lang");
  if (kept && strings[kept]) return kept;
  return (navigator.languages || [navigator.language || "en"]).map(l => l.slice(0, 2)).find(l => strings[l]) || "en";
}
const lang = chosenLanguage();
const t = Object.assign({}, strings[lang], notices[lang], Board.strings[lang]);
const ev = events[lang];
document.documentElement.lang = lang;

// Timings of the start, read by the benchmark: ms since navigation start.
window.aeroplaneTimes = {};
const status = document.getElementById("status");
function say(state, text) { document.body.dataset.state = state; status.textContent = text; }
say("loading", t.loading);

// The board (board.js) and the dice panel, as the wasm's JSON says.
let lastBoard = null;
function draw(board) {
  lastBoard = board;
  Board.draw(board);
  if (board.roll) {
    Board.die(die, board.roll);
    // When each roll showed, on the wall clock, for the latency benchmark.
    (window.aeroplaneTimes.rolls ||= []).push({ colour: board.roll.colour, at: performance.timeOrigin + performance.now() });
  }
}

// offerMoves lets the player tap one of the planes that may move, or the
// square it would land on; a roll with one outcome only (a single plane,
// a pass, the third six) is played at once, as on the terminal.
const die = document.getElementById("die");
function offerMoves(moves) {
  const targets = (lastBoard && lastBoard.targets) || [];
  if (moves.length === 1 || targets.length === 0) { aeroplane.choose(moves[0]); return; }
  document.body.dataset.yourMove = moves.join(" ");
  status.textContent = t.tap;
  Board.offer(targets, m => {
    document.body.dataset.yourMove = "";
    status.textContent = t.wait;
    aeroplane.choose(m);
  });
}

// offerRoll shines the die: the person's tap rolls.
function offerRoll() {
  document.body.dataset.yourRoll = "yes";
  status.textContent = t.roll;
  Board.armDie(die, () => {
    document.body.dataset.yourRoll = "";
    status.textContent = t.wait;
    aeroplane.roll();
  });
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
// keepSeat keeps the table and colour the person sits at, at the serving
// program's table (localStorage "aeroplane.sat"), so that a page reloaded
// there, or whose socket dropped as the phone locked, sits down again at
// that table under the kept name and asks for that colour. Sent once per
// page; a refusal, or the game starting, forgets it.
let seatAgain = (() => { try { return JSON.parse(localStorage.getItem("aeroplane.sat") || "null"); } catch { return null; } })(); // {lobby, colour}
let satAgain = false;
function keepSeat(tb, me) {
  if (tb.error) { if (satAgain && seatAgain) forgetSeat(); return; }
  const name = localStorage.getItem("aeroplane.name") || "";
  const again = seatAgain && seatAgain.lobby === tb.lobby;
  if (!me && again && name && !satAgain) { satAgain = true; aeroplane.sit(name); return; }
  if (!me) return;
  if (again && satAgain && me.colour !== seatAgain.colour) aeroplane.colour(seatAgain.colour);
  if (satAgain || !again) seatAgain = null;
  localStorage.setItem("aeroplane.sat", JSON.stringify(seatAgain || { lobby: tb.lobby, colour: me.colour }));
}
function forgetSeat() { seatAgain = null; localStorage.removeItem("aeroplane.sat"); }

function showTable(json) {
  const tb = JSON.parse(json);
  window.aeroplaneTimes.table ||= performance.now();
  if (document.body.dataset.game !== "playing") document.body.dataset.game = "table";
  document.getElementById("table").hidden = false;
  document.getElementById("tableerror").textContent = tb.error || "";
  if (tb.error) { document.body.dataset.tableError = tb.error; keepSeat(tb, null); return; }
  const me = (tb.players || []).find(p => p.id === myId);
  keepSeat(tb, me);
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

// setupLanguage offers the seven languages; a choice is kept and the page
// reloaded in it (a game in play is taken up again from what was kept).
function setupLanguage() {
  const label = document.createElement("label");
  label.textContent = t.langlabel + " ";
  const pick = document.createElement("select");
  pick.id = "lang";
  for (const [code, name] of Object.entries(langNames)) pick.add(new Option(name, code, false, code === lang));
  pick.addEventListener("change", () => { localStorage.setItem("aeroplane.lang", pick.value); location.reload(); });
  label.appendChild(pick);
  document.querySelector("footer").appendChild(label);
}

// The event log: one line per event the browser's node reports, newest
// at the bottom, the last 200 kept. The dice panel counts the faces of
// every roll of this game (its rolls, as the terminal's stats line), by
// roll index: a roll reported again after a rollback counts once.
const faces = [0, 0, 0, 0, 0, 0];
const rolled = new Map(); // roll index → face
function eventText(line) {
  const args = line.args || [];
  let text = ev[line.key] || line.key;
  if (line.key === "over") return text.replace("{0}", args.map(c => ev["c." + c] || c).join(", "));
  text = text.replace("{c}", ev["c." + line.colour] || "-");
  return text.replace(/\{(\d)\}/g, (_, i) => args[+i] || "");
}
function showEvents(json) {
  const log = document.getElementById("eventlog");
  for (const line of JSON.parse(json)) {
    const li = document.createElement("li");
    if (line.colour) li.className = "seat " + line.colour;
    li.dataset.key = line.key;
    li.textContent = eventText(line);
    log.appendChild(li);
    const face = +(line.args || [])[0];
    if (line.key === "rolled" && face >= 1 && face <= 6) {
      const was = rolled.get(line.roll || 0);
      if (was) faces[was - 1]--;
      rolled.set(line.roll || 0, face);
      faces[face - 1]++;
    }
  }
  while (log.children.length > 200) log.firstChild.remove();
  log.hidden = false;
  log.scrollTop = log.scrollHeight;
  showFaces();
}
function showFaces() {
  const n = faces.reduce((a, b) => a + b, 0);
  const panel = document.getElementById("faces");
  panel.textContent = faces.map((k, i) => (i + 1) + ":" + k).join(" ") + ", " + ev.rolls.replace("{0}", n);
  panel.dataset.counts = faces.join(" ");
  panel.hidden = n === 0;
}
function clearEvents() {
  faces.fill(0);
  rolled.clear();
  document.getElementById("eventlog").replaceChildren();
  document.getElementById("eventlog").hidden = true;
  document.getElementById("faces").hidden = true;
}

// claimTab makes this tab the one that plays the kept game: a tab opened
// later on the same storage takes it, and this one stops (two nodes of
// one key must never both sign).
function claimTab() {
  const me = String(Math.random());
  localStorage.setItem("aeroplane.tab", me);
  window.addEventListener("storage", ev => {
    if (ev.key === "aeroplane.tab" && ev.newValue !== me && window.aeroplane && aeroplane.suspend) aeroplane.suspend();
  });
}
claimTab();

// endNotice is what the page says of a game that ended before it was over.
function endNotice(end) {
  document.body.dataset.endKind = end.kind || "failed";
  status.textContent = t["end." + (end.kind || "failed")] + (end.kind === "failed" || !end.kind ? end.error : "");
}
window.aeroplaneNotKept = () => { document.body.dataset.kept = "no"; document.getElementById("key").textContent = t.notkept; };

// offerRematch offers the next game at the serving program's table once
// one is over, as the terminal's r: the page sits down again under the
// person's name and asks for its colour (the creator reopens the table).
function offerRematch() {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "rematch";
  b.textContent = t.rematch;
  b.addEventListener("click", () => {
    if (aeroplane.rematch(localStorage.getItem("aeroplane.name") || "") !== true) return;
    b.remove();
    const save = document.getElementById("savelog");
    if (save) save.remove();
    delete document.body.dataset.history;
    delete document.body.dataset.ranking;
    clearEvents();
    document.body.dataset.game = "joining";
    document.body.dataset.rematch = "yes";
    status.textContent = t.ready;
  });
  document.querySelector("footer").appendChild(b);
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
  aeroplane.setLang(lang);
  setupLanguage();
  setupTable();
  setupChat();
  Board.setup(document.getElementById("board"), JSON.parse(aeroplane.layout()));
  Board.legend(document.getElementById("legend"), t);
  die.setAttribute("aria-label", t.die);
  Board.die(die, null);
  draw(JSON.parse(aeroplane.board(aeroplane.start("RBYG"))));
  window.aeroplaneTimes.board = performance.now();
  say("board", t.ready);
  // Sit at the serving program's table, if it has one for this browser.
  document.body.dataset.game = "joining";
  const leave = document.getElementById("leave");
  leave.textContent = t.leave;
  leave.addEventListener("click", () => { if (aeroplane.leave() === true) { leave.hidden = true; document.body.dataset.left = "yes"; } });
  setupMove();
  aeroplane.play(json => {
    if (document.body.dataset.game !== "playing") forgetSeat();
    document.body.dataset.game = "playing";
    document.getElementById("moveform").hidden = false;
    document.getElementById("table").hidden = true;
    leave.hidden = document.body.dataset.left === "yes";
    draw(JSON.parse(json));
  }, end => {
    document.body.dataset.yourMove = "";
    Board.clear();
    Board.armDie(die, null);
    document.getElementById("moveform").hidden = true;
    leave.hidden = true;
    if (end.left) { document.body.dataset.game = "left"; status.textContent = t.left; saveLink(); return; }
    if (end.error) {
      document.body.dataset.game = "none"; document.body.dataset.gameError = end.error; endNotice(end);
      // The socket dropped at the table (the phone locked): a new page sits again.
      if (end.kind === "closed" && localStorage.getItem("aeroplane.sat")) setTimeout(() => location.reload(), 1000);
      return;
    }
    document.body.dataset.history = end.history;
    document.body.dataset.ranking = end.ranking.join("");
    document.body.dataset.game = end.phase;
    status.textContent = t.over + end.ranking.join(" ");
    saveLink();
    if (end.phase === "over") offerRematch();
  }, offerMoves, showTable, showChat, offerRoll, showEvents);
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
