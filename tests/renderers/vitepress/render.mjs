// Render a batch of Markdown pages the way a VitePress site does, for tolmach's tests.
//
// stdin:  {"pages": {name: markdown}, "srcDir": folder, "options": {...}}
//         (options: VitePress `markdown` config, JSON-able keys only, e.g. {"lineNumbers": true};
//         srcDir: the site's source folder, which `<<< @/file` snippets are read from)
// stdout: {"html": {name: html}, "errors": {name: message}}
//
// VitePress turns a page into HTML with one markdown-it instance made by
// createMarkdownRenderer (containers, code groups, anchors, emoji, [[toc]], front matter
// stripping, <script>/<style> hoisting, shiki highlighting) and renders each page with an
// env like the one markdownToVue passes. That HTML is then compiled as a Vue template;
// that step (interpolation, components) is not run here.
import path from 'node:path'
import { createMarkdownRenderer } from 'vitepress'

async function readStdin() {
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

// Code groups name their radio inputs with random ids; renumber them in order of
// appearance so two renders of the same structure are byte-comparable.
const CODE_GROUP_INPUT = /<input type="radio" name="group-([\w-]{5})" id="tab-([\w-]{7})"/g

function renumberCodeGroups(html) {
  const names = new Map()
  const tabs = new Map()
  for (const [, name, tab] of html.matchAll(CODE_GROUP_INPUT)) {
    if (!names.has(name)) names.set(name, `group-${names.size + 1}`)
    if (!tabs.has(tab)) tabs.set(tab, `tab-${tabs.size + 1}`)
  }
  let out = html
  for (const [random, stable] of names) out = out.replaceAll(`"group-${random}"`, `"${stable}"`)
  for (const [random, stable] of tabs) out = out.replaceAll(`"tab-${random}"`, `"${stable}"`)
  return out
}

function pageEnv(srcDir, name) {
  const relativePath = name.endsWith('.md') ? name : `${name}.md`
  const file = path.join(srcDir, relativePath)
  // The fields markdownToVue fills in for a site without locales or rewrites.
  return {
    path: file,
    relativePath,
    cleanUrls: false,
    includes: [],
    realPath: file,
    localeIndex: 'root',
  }
}

const { pages, srcDir = path.resolve('docs'), options = {} } = await readStdin()
const md = await createMarkdownRenderer(srcDir, options, '/', console)
const html = {}
const errors = {}
for (const [name, source] of Object.entries(pages)) {
  try {
    html[name] = renumberCodeGroups(md.render(source, pageEnv(srcDir, name)))
  } catch (error) {
    errors[name] = String(error?.message ?? error)
  }
}
// The shiki highlighter keeps workers alive: exit once the answer is written.
process.stdout.write(JSON.stringify({ html, errors }), () => process.exit(0))
