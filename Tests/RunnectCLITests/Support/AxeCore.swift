import Foundation
import RunnectTestSupport

/// axe-core, the accessibility engine, as PyPI's `axe-playwright-python` ships it
/// (`axe_playwright_python/axe.min.js`; `scripts/setup.sh --test` installs the package without
/// its dependencies). Found through Python's import machinery without importing the package,
/// which would need Playwright.
enum AxeCore {
    /// The path of `axe.min.js`; `nil` when the package (or python3) is missing.
    static let script: String? = {
        guard ExternalTool.path("python3") != nil else { return nil }
        let find = """
            import importlib.util, os
            spec = importlib.util.find_spec("axe_playwright_python")
            folder = list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else ""
            path = os.path.join(folder, "axe.min.js")
            print(path if folder and os.path.isfile(path) else "")
            """
        guard let found = try? ToolRun.run(["python3", "-c", find], timeoutSeconds: 30), found.status == 0 else {
            return nil
        }
        let path = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    static let missing =
        "axe-core is missing: python3 -m pip install --no-deps axe-playwright-python (scripts/setup.sh --test)"
}
