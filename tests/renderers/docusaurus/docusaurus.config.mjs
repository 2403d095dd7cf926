// Site configuration for a throwaway Docusaurus build of a batch of pages (tolmach tests).
//
// The pages live in <siteDir>/docs and are served from the site root; blog, pages and
// sidebars are off so the build does little besides the docs. Extra configuration comes
// as JSON in TOLMACH_DOCUSAURUS_CONFIG and is merged one level deep (e.g.
// {"markdown": {"format": "detect"}}). After the build, pages.json next to the output
// folder maps each source file to its permalink, so the caller finds each page's HTML.
import fs from 'node:fs'
import path from 'node:path'

function pageMapPlugin() {
  return {
    name: 'tolmach-page-map',
    async postBuild({ plugins, outDir }) {
      const docs = plugins
        .filter((plugin) => plugin.name === 'docusaurus-plugin-content-docs')
        .flatMap((plugin) => plugin.content.loadedVersions)
        .flatMap((version) => version.docs)
        .map((doc) => ({ source: doc.source, permalink: doc.permalink }))
      const target = path.join(path.dirname(outDir), 'pages.json')
      fs.writeFileSync(target, JSON.stringify(docs))
    },
  }
}

function mergeOneLevel(base, extra) {
  const merged = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    const both = [base[key], value].every((v) => v && typeof v === 'object' && !Array.isArray(v))
    merged[key] = both ? { ...base[key], ...value } : value
  }
  return merged
}

const base = {
  title: 'tolmach render',
  url: 'https://example.org',
  baseUrl: '/',
  onBrokenLinks: 'ignore',
  onBrokenAnchors: 'ignore',
  markdown: { hooks: { onBrokenMarkdownLinks: 'ignore' } },
  presets: [
    [
      'classic',
      {
        docs: { routeBasePath: '/', sidebarPath: false },
        blog: false,
        pages: false,
        theme: {},
      },
    ],
  ],
  plugins: [pageMapPlugin],
}

export default mergeOneLevel(base, JSON.parse(process.env.TOLMACH_DOCUSAURUS_CONFIG || '{}'))
