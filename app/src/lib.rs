//! Tally's web pages: Leptos components rendered on the server (`ssr`) and hydrated in the browser
//! (`hydrate`). Data comes from server functions; nothing here answers questions itself.

pub mod pages;
pub mod status;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::StaticSegment;

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="icon" href="/favicon.ico"/>
                <HashedStylesheet options=options.clone() id="tally-style"/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The application: routes and shared chrome.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="Tally: counts and quantities, with evidence"/>
        <Router>
            <header class="site-header">
                <a class="brand" href="/">"Tally"</a>
                <span class="tagline">"Count and quantity questions, answered from text with evidence"</span>
            </header>
            <main>
                <Routes fallback=|| view! { <pages::NotFound/> }>
                    <Route path=StaticSegment("") view=pages::HomePage/>
                </Routes>
            </main>
        </Router>
    }
}

/// Browser entry point: attaches the server-rendered page to the WASM app.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
}
