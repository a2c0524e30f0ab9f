// /fair-dice/verify: checks a finished game's record in the browser, with no
// server and no manage.py (docs/fair-dice.md, "Checking in the browser").
// SHA-256 and HMAC-SHA256 come from the browser's WebCrypto; BLAKE2b, which
// WebCrypto lacks, is written out below (RFC 7693) on BigInt words. The
// engine's replay (every move legal, the final position) is not redone
// here: the page says so, and `verify_record` does it.
(function (root) {
  "use strict";

  // --- BLAKE2b (RFC 7693), keyed, any digest length up to 64 bytes -------
  var MASK = (1n << 64n) - 1n;
  var IV = [
    0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
    0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
  ];
  var SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
  ];

  function rotr(x, n) {
    return ((x >> n) | (x << (64n - n))) & MASK;
  }

  function compress(h, block, t, last) {
    var m = new Array(16);
    for (var i = 0; i < 16; i++) {
      var w = 0n;
      for (var j = 7; j >= 0; j--) w = (w << 8n) | BigInt(block[i * 8 + j]);
      m[i] = w;
    }
    var v = h.concat(IV);
    v[12] ^= BigInt(t) & MASK;
    v[13] ^= BigInt(t) >> 64n;
    if (last) v[14] ^= MASK;
    function g(a, b, c, d, x, y) {
      v[a] = (v[a] + v[b] + x) & MASK;
      v[d] = rotr(v[d] ^ v[a], 32n);
      v[c] = (v[c] + v[d]) & MASK;
      v[b] = rotr(v[b] ^ v[c], 24n);
      v[a] = (v[a] + v[b] + y) & MASK;
      v[d] = rotr(v[d] ^ v[a], 16n);
      v[c] = (v[c] + v[d]) & MASK;
      v[b] = rotr(v[b] ^ v[c], 63n);
    }
    for (var r = 0; r < 12; r++) {
      var s = SIGMA[r % 10];
      g(0, 4, 8, 12, m[s[0]], m[s[1]]);
      g(1, 5, 9, 13, m[s[2]], m[s[3]]);
      g(2, 6, 10, 14, m[s[4]], m[s[5]]);
      g(3, 7, 11, 15, m[s[6]], m[s[7]]);
      g(0, 5, 10, 15, m[s[8]], m[s[9]]);
      g(1, 6, 11, 12, m[s[10]], m[s[11]]);
      g(2, 7, 8, 13, m[s[12]], m[s[13]]);
      g(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (var k = 0; k < 8; k++) h[k] ^= v[k] ^ v[k + 8];
  }

  function blake2b(message, key, outlen) {
    var h = IV.slice();
    h[0] ^= 0x01010000n ^ (BigInt(key.length) << 8n) ^ BigInt(outlen);
    var data = message;
    if (key.length) {
      data = new Uint8Array(128 + message.length);
      data.set(key, 0);
      data.set(message, 128);
    }
    var blocks = Math.max(1, Math.ceil(data.length / 128));
    for (var b = 0; b < blocks; b++) {
      var block = new Uint8Array(128);
      block.set(data.subarray(b * 128, b * 128 + 128));
      var last = b === blocks - 1;
      compress(h, block, last ? data.length : (b + 1) * 128, last);
    }
    var out = new Uint8Array(outlen);
    for (var i = 0; i < outlen; i++) out[i] = Number((h[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
    return out;
  }

  // --- the engine's keyed generator (games/engine/rng.py) ------------------
  var GAME_STREAM = new TextEncoder().encode("game:");

  function keyedU64(key, counter) {
    var data = new Uint8Array(GAME_STREAM.length + 8);
    data.set(GAME_STREAM, 0);
    var c = BigInt(counter);
    for (var i = 7; i >= 0; i--) { data[GAME_STREAM.length + i] = Number(c & 0xffn); c >>= 8n; }
    var digest = blake2b(data, key, 8);
    var r = 0n;
    for (var j = 0; j < 8; j++) r = (r << 8n) | BigInt(digest[j]);
    return r;
  }

  // A uniform number below n, skipping outputs past the last multiple of n.
  function Stream(key) { this.key = key; this.counter = 0; }
  Stream.prototype.below = function (n) {
    var big = BigInt(n);
    var limit = (1n << 64n) - ((1n << 64n) % big);
    for (;;) {
      var r = keyedU64(this.key, this.counter);
      this.counter += 1;
      if (r < limit) return Number(r % big);
    }
  };
  Stream.prototype.shuffle = function (items) {
    for (var i = items.length - 1; i > 0; i--) {
      var j = this.below(i + 1);
      var t = items[i]; items[i] = items[j]; items[j] = t;
    }
  };

  // --- hex and WebCrypto ----------------------------------------------------
  function fromHex(text) {
    if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) throw new Error("not hex");
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
    return out;
  }
  function toHex(bytes) {
    return Array.prototype.map.call(new Uint8Array(bytes), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  function sha256(bytes) {
    return crypto.subtle.digest("SHA-256", bytes).then(toHex);
  }
  var LABEL = new TextEncoder().encode("monopoly fair dice v1");
  // games/engine/rng.py dice_key: HMAC-SHA256 keyed by the secret, of the
  // label, then per seat one length byte and the seed's bytes.
  function diceKey(secret, seeds) {
    var parts = [LABEL];
    seeds.forEach(function (seed) {
      var raw = seed ? fromHex(seed) : new Uint8Array(0);
      if (seed && (raw.length < 16 || raw.length > 64)) throw new Error("a seed of " + raw.length + " bytes");
      parts.push(Uint8Array.of(raw.length), raw);
    });
    var total = parts.reduce(function (n, p) { return n + p.length; }, 0);
    var message = new Uint8Array(total);
    var at = 0;
    parts.forEach(function (p) { message.set(p, at); at += p.length; });
    return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (key) { return crypto.subtle.sign("HMAC", key, message); })
      .then(function (mac) { return new Uint8Array(mac); });
  }

  // --- the check ------------------------------------------------------------
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (_, name) { return String(values[name]); });
  }

  // Every throw and card the record shows, against the keyed stream: the
  // two decks' shuffles, the rolls for the first player, the deal of title
  // deeds where the rules deal them, then one draw below 36 per throw.
  // ``rules.jailFree``: per deck, the card numbers a player keeps when drawn.
  function checkOutcomes(key, outcomes, rules, say) {
    var jailFree = rules.jailFree;
    var stream = new Stream(key);
    var decks = [[], []];
    for (var d = 0; d < 2; d++) {
      for (var c = 0; c < 16; c++) decks[d].push(c);
      stream.shuffle(decks[d]);
    }
    var dealt = !(rules.dealDeeds > 0);
    var drawn = [0, 0];
    var cycle = [[], []];
    var cyclePos = [0, 0];
    for (var k = 0; k < 2; k++) {
      cycle[k] = decks[k].filter(function (card) { return jailFree[k].indexOf(card) === -1; });
    }
    var counts = { throws: 0, cards: 0, unchecked: 0 };
    for (var i = 0; i < outcomes.length; i++) {
      var kind = outcomes[i][0], args = outcomes[i][2] || [];
      if (kind === "dice" && !dealt) {
        stream.shuffle(new Array(28).fill(0)); // the deeds: only the draws it uses count here
        dealt = true;
      }
      if (kind === "first_roll" || kind === "dice") {
        var r = stream.below(36);
        var want = [Math.floor(r / 6) + 1, (r % 6) + 1];
        if (args[0] !== want[0] || args[1] !== want[1]) {
          return { ok: false, at: i, detail: fill(say.throw_differs, { n: i + 1, shown: args.join("+"), want: want.join("+") }) };
        }
        counts.throws += 1;
      } else if (kind === "card") {
        var deck = args[0], card = args[1];
        if (deck !== 0 && deck !== 1) return { ok: false, at: i, detail: fill(say.bad_outcome, { n: i + 1 }) };
        var expected = null;
        if (drawn[deck] < 16) {
          expected = decks[deck][drawn[deck]];
        } else if (jailFree[deck].indexOf(card) === -1) {
          expected = cycle[deck][cyclePos[deck] % cycle[deck].length];
        } else {
          counts.unchecked += 1; // a Get Out of Jail Free card after its deck's first round
        }
        if (expected !== null && card !== expected) {
          return { ok: false, at: i, detail: fill(say.card_differs, { n: i + 1, shown: card, want: expected, deck: deck }) };
        }
        if (jailFree[deck].indexOf(card) === -1) cyclePos[deck] += 1;
        drawn[deck] += 1;
        counts.cards += 1;
      } else {
        return { ok: false, at: i, detail: fill(say.bad_outcome, { n: i + 1 }) };
      }
    }
    return { ok: true, counts: counts };
  }

  // The record's rules ({preset, overrides}) as far as the draws go: the
  // deck edition's Get Out of Jail Free cards and the deeds dealt.
  function gameRules(ruleset, rulesData) {
    if (!ruleset || typeof ruleset !== "object") return null;
    var preset = rulesData.presets[ruleset.preset];
    if (!preset) return null;
    var overrides = ruleset.overrides || {};
    var decks = overrides.decks !== undefined ? overrides.decks : preset.decks;
    var deal = overrides.deal_deeds !== undefined ? overrides.deal_deeds : preset.deal_deeds;
    var jailFree = rulesData.jail_free[decks];
    if (!jailFree) return null;
    return { jailFree: jailFree, dealDeeds: Number(deal) || 0 };
  }

  function verify(record, rulesData, say) {
    var checks = [];
    function add(name, ok, detail) { checks.push({ name: name, ok: ok, detail: detail }); return ok; }
    function done() { return checks; }
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      add(say.name_record, false, say.not_a_record);
      return Promise.resolve(done());
    }
    if (record.generator !== "blake2b-keyed") {
      add(say.name_generator, false, say.not_keyed);
      return Promise.resolve(done());
    }
    if (!record.secret) {
      add(say.name_secret, false, say.no_secret);
      return Promise.resolve(done());
    }
    var secret;
    try {
      secret = fromHex(String(record.secret));
      if (secret.length < 32 || secret.length > 64) throw new Error("length");
    } catch (e) {
      add(say.name_commitment, false, say.bad_secret);
      return Promise.resolve(done());
    }
    return sha256(secret).then(function (digest) {
      var matches = digest === record.commitment;
      if (!add(say.name_commitment, matches, fill(matches ? say.commitment_ok : say.commitment_bad, { commitment: record.commitment, digest: digest }))) {
        return done();
      }
      var seeds = record.seeds;
      var players = record.players || [];
      var keyed;
      if (seeds === undefined) {
        add(say.name_key, true, say.no_seeds);
        keyed = Promise.resolve(secret);
      } else {
        if (!Array.isArray(seeds) || seeds.length !== players.length) {
          add(say.name_key, false, say.bad_seeds);
          return done();
        }
        try {
          keyed = diceKey(secret, seeds).then(function (key) {
            var given = seeds.filter(function (s) { return !!s; }).length;
            var bots = seeds.filter(function (s) { return s === null; }).length;
            add(say.name_key, true, fill(say.key_ok, { seats: seeds.length, given: given, none: seeds.length - given - bots, bots: bots, key: toHex(key) }));
            return key;
          });
        } catch (e) {
          add(say.name_key, false, say.bad_seeds);
          return done();
        }
      }
      return keyed.then(function (key) {
        var rules = gameRules(record.ruleset, rulesData);
        if (!rules) {
          add(say.name_outcomes, false, fill(say.unknown_rules, { rules: JSON.stringify(record.ruleset) }));
          return done();
        }
        if (!Array.isArray(record.outcomes)) {
          add(say.name_outcomes, false, say.no_outcomes);
          return done();
        }
        var result = checkOutcomes(key, record.outcomes, rules, say);
        if (result.ok) {
          add(say.name_outcomes, true, fill(say.outcomes_ok, result.counts));
        } else {
          add(say.name_outcomes, false, result.detail);
        }
        return done();
      });
    });
  }

  var api = { blake2b: blake2b, keyedU64: keyedU64, Stream: Stream, diceKey: diceKey, verify: verify, fromHex: fromHex, toHex: toHex };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }

  // --- the page -------------------------------------------------------------
  var form = document.getElementById("verify-form");
  if (!form) return;
  var say = JSON.parse(document.getElementById("verify-text").textContent);
  var rulesData = JSON.parse(document.getElementById("verify-rules").textContent);
  var results = document.getElementById("verify-results");
  var summary = document.getElementById("verify-summary");
  var seedList = document.getElementById("verify-seeds");
  var fileInput = document.getElementById("verify-file");
  var pasted = document.getElementById("verify-text-input");

  fileInput.addEventListener("change", function () {
    var file = fileInput.files && fileInput.files[0];
    if (!file) return;
    file.text().then(function (text) { pasted.value = text; run(); });
  });

  function show(checks, record) {
    results.textContent = "";
    var ok = checks.length > 0 && checks.every(function (c) { return c.ok; });
    checks.forEach(function (c) {
      var li = document.createElement("li");
      li.className = c.ok ? "check-ok" : "check-fail";
      li.setAttribute("data-check", c.ok ? "ok" : "fail");
      var mark = document.createElement("strong");
      mark.textContent = (c.ok ? say.ok : say.fail) + " " + c.name + ": ";
      li.appendChild(mark);
      li.appendChild(document.createTextNode(c.detail));
      results.appendChild(li);
    });
    summary.textContent = ok ? say.summary_ok : say.summary_fail;
    summary.className = ok ? "verify-ok" : "verify-fail";
    summary.setAttribute("data-verdict", ok ? "ok" : "fail");
    seedList.textContent = "";
    if (record && Array.isArray(record.seeds)) {
      (record.players || []).forEach(function (name, i) {
        var li = document.createElement("li");
        var seed = record.seeds[i];
        li.textContent = name + ": " + (seed ? seed : seed === null ? say.seat_bot : say.seat_none);
        seedList.appendChild(li);
      });
    }
  }

  function run() {
    var record;
    try {
      record = JSON.parse(pasted.value);
    } catch (e) {
      show([{ name: say.name_record, ok: false, detail: say.not_json }], null);
      return;
    }
    if (!window.crypto || !crypto.subtle) {
      show([{ name: say.name_record, ok: false, detail: say.no_webcrypto }], null);
      return;
    }
    summary.textContent = say.checking;
    summary.removeAttribute("data-verdict");
    verify(record, rulesData, say).then(function (checks) { show(checks, record); }, function (e) {
      show([{ name: say.name_record, ok: false, detail: String(e) }], null);
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    run();
  });
})(this);
