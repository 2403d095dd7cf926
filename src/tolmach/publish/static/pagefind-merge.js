// The Pagefind interface the search box (PagefindUI) loads, over the several bundles of
// one language: PagefindUI imports this module as its bundle's "pagefind.js" and gives
// it every bundle through mergeIndex; here each bundle is a Pagefind instance of its own
// and a search asks them all, the results ranked together by score.
//
// Why not Pagefind's own mergeIndex: a bundle that holds no word beginning with a
// search term answers with the pages of the longest word the term begins with ("in" for
// "inference"), a fallback meant for typos. One index over all pages takes that
// fallback only when no page has the word, and then the longest such word of all; so
// here a bundle's answer is left out when it fell back and another bundle has the word
// (or fell back to a longer one): the same pages as one index would find.

var settings = {};
var loading = {}; // bundle path → Promise of its initialised Pagefind instance
var merged_in = []; // Promises of the instances, in the order mergeIndex named them
var bundles = []; // {search, preload, filters, destroy} per bundle, once all are loaded

// Start loading the bundles before the reader types (the search page calls this when it
// opens): each bundle's first load (its module, worker, WebAssembly and metadata) is
// what makes a first search over many bundles slow, and the bundles load side by side.
export function warm(bundlePaths, baseUrl) {
  bundlePaths.forEach(function (path) {
    load(path, baseUrl).catch(function () {}); // a failure shows when the search asks
  });
}

// Each bundle through its own copy of Pagefind's module (its own worker and WebAssembly
// memory): instances that share one module share its WebAssembly, which loads again for
// each new primary instance and breaks the others.
function load(bundlePath, baseUrl) {
  if (!loading[bundlePath]) {
    loading[bundlePath] = import(bundlePath + "pagefind.js").then(async function (module) {
      var instance = module.createInstance({ basePath: bundlePath, baseUrl: baseUrl });
      await instance.init();
      return instance;
    });
  }
  return loading[bundlePath];
}

// PagefindUI names the bundles one after another and waits for each: the loading is
// only started here, and every call below waits for all of them.
export async function mergeIndex(bundlePath, given) {
  var own = Object.assign({}, settings, given || {});
  delete own.language;
  merged_in.push(load(bundlePath, own.baseUrl).then(async function (instance) {
    await instance.options(own);
    return instance;
  }));
}

async function loaded() {
  bundles = await Promise.all(merged_in);
  return bundles;
}

export async function options(given) {
  settings = Object.assign({}, settings, given);
  await Promise.all((await loaded()).map(function (b) { return b.options(given); }));
}

export async function preload(term, given) {
  await Promise.all((await loaded()).map(function (b) { return b.preload(term, given); }));
}

export async function filters() {
  return merged(await Promise.all((await loaded()).map(function (b) { return b.filters(); })));
}

export async function destroy() {
  await Promise.all((await loaded()).map(function (b) { return b.destroy(); }));
  bundles = [];
  merged_in = [];
  loading = {};
}

export async function search(term, given) {
  await loaded();
  var answers = await Promise.all(bundles.map(function (b) { return b.search(term, given); }));
  var kept = await withoutFallbacks(term, given, answers);
  var results = [].concat.apply([], kept.map(function (a) { return a.results; }));
  results.sort(function (a, b) { return b.score - a.score; });
  return {
    results: results,
    unfilteredResultCount: kept.reduce(function (n, a) { return n + a.unfilteredResultCount; }, 0),
    filters: merged(kept.map(function (a) { return a.filters || {}; })),
    totalFilters: merged(answers.map(function (a) { return a.totalFilters || {}; })),
    timings: answers.map(function (a) { return a.timings; }),
  };
}

export async function debouncedSearch(term, given) {
  return search(term, given);
}

// The answers of the bundles that found each term as a word or the start of one. When
// none did, each bundle fell back to the longest word the term begins with that it
// holds, and one index would have taken the longest of all: only those bundles stay.
async function withoutFallbacks(term, given, answers) {
  var words = (term || "").trim().split(/\s+/).filter(Boolean);
  if (/^\s*".*"\s*$/.test(term || "") || !words.every(checkable)) return answers;
  var dropped = bundles.map(function () { return false; });
  for (var w = 0; w < words.length; w++) {
    var found = await Promise.all(bundles.map(function (b, i) {
      return words.length === 1 ? Promise.resolve(answers[i]) : b.search(words[w], given);
    }));
    var fallback = await Promise.all(bundles.map(function (b, i) {
      return fallbackLength(b, words[w], found[i], given);
    }));
    var someoneHasIt = found.some(function (a, i) { return a.results.length && !fallback[i]; });
    var longest = Math.max.apply(null, fallback);
    fallback.forEach(function (length, i) {
      if (length && (someoneHasIt || length < longest)) dropped[i] = true;
    });
  }
  return answers.filter(function (a, i) { return !dropped[i]; });
}

// How long the word is that a bundle fell back to for a search word (0: it did not):
// it falls back when it does not hold the word (an exact search finds nothing) and a
// word its best pages matched is only a beginning of the search word ("c" or "ç" for
// "closure": Pagefind matches letters with and without their accents alike).
async function fallbackLength(bundle, word, found, given) {
  if (!found.results.length) return 0;
  var exact = await bundle.search('"' + word + '"', given);
  if (exact.results.length) return 0;
  var wanted = plain(word);
  var longest = 0;
  var best = await Promise.all(found.results.slice(0, 3).map(function (r) { return r.data(); }));
  best.forEach(function (data) {
    var marks = (data.excerpt || "").match(/<mark>[^<]*<\/mark>/g) || [];
    marks.forEach(function (mark) {
      var matched = plain(mark.slice(6, -7));
      if (matched && matched.length < wanted.length && wanted.indexOf(matched) === 0) {
        longest = Math.max(longest, matched.length);
      }
    });
  });
  return longest;
}

// Words written with spaces between them; Pagefind segments Chinese, Japanese and Thai
// itself, and there a word of the query is not a word of the index.
function checkable(word) {
  return !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u.test(word);
}

function plain(text) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function merged(all) {
  var out = {};
  all.forEach(function (one) {
    Object.keys(one).forEach(function (key) {
      out[key] = out[key] || {};
      Object.keys(one[key]).forEach(function (value) {
        out[key][value] = (out[key][value] || 0) + one[key][value];
      });
    });
  });
  return out;
}
