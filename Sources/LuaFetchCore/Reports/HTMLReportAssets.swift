// The style and the scripts of the HTML pages (HTMLReport), as the files of `Page/` compiled into
// the binary (SwiftPM resources, `.embedInCode`): `page.css` (the run's page and the index
// pages), the run page's script in three files joined in this order, `page.js` (data, drawing,
// tooltip), `page-details.js` (selection, details, coverage) and `page-list.js` (event list, zoom
// and pan, start), and `index.js` (the index pages' filters). Hand-written, no library; a test
// checks that both scripts parse (`node --check`) and run in headless Chromium without an error.

enum HTMLReportAssets {
    static let css = String(decoding: PackageResources.page_css, as: UTF8.self)
    static let script = [PackageResources.page_js, PackageResources.page_details_js, PackageResources.page_list_js]
        .map { String(decoding: $0, as: UTF8.self) }.joined()
    static let indexScript = String(decoding: PackageResources.index_js, as: UTF8.self)
}
