-- A real non-VS-Code client: Neovim's built-in LSP client (0.7, as Debian ships it) driving `recipe-lens lsp --stdio`.
-- Run headless by test/neovim/neovim.test.ts:
--   nvim --headless --clean -n -u NONE -i NONE -c "luafile test/neovim/client.lua"
-- with RECIPE_LENS_NODE, RECIPE_LENS_CLI, RECIPE_LENS_FILE and RECIPE_LENS_OUT in the environment. It opens the file,
-- waits for the diagnostics, asks for a hover, a completion, the code lens and the document symbols, applies the
-- quick fix "Set model.context_parallel_size: 4", waits for the diagnostics to clear, and writes everything it got to
-- RECIPE_LENS_OUT as JSON (the test asserts on it). Every wait is for a state (vim.wait with a condition).

local out = { steps = {} }
local node = os.getenv('RECIPE_LENS_NODE')
local cli = os.getenv('RECIPE_LENS_CLI')
local file = os.getenv('RECIPE_LENS_FILE')
local out_path = os.getenv('RECIPE_LENS_OUT')

local function step(name)
  table.insert(out.steps, name)
end

local function wait(what, condition)
  if not vim.wait(30000, condition, 10) then
    error('timed out waiting for ' .. what)
  end
end

local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, 30000)
  if not responses then
    error(method .. ': ' .. tostring(err))
  end
  for _, r in pairs(responses) do
    if r.err then
      error(method .. ': ' .. vim.inspect(r.err))
    end
    return r.result
  end
end

-- Diagnostics as Neovim holds them (0-based lines and columns), with the LSP code.
local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(list, {
      code = d.code or lsp.code,
      source = d.source,
      severity = d.severity,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      message = d.message,
    })
  end
  table.sort(list, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    return a.code < b.code
  end)
  return list
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'yaml'
  local exited = false
  local client_id = vim.lsp.start_client({
    name = 'recipe-lens',
    cmd = { node, cli, 'lsp', '--stdio' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    -- Settings: initializationOptions, and the recipeLens section answered to workspace/configuration.
    init_options = { gpu = 'h100' },
    settings = { recipeLens = { memoryWarnings = true } },
    on_exit = function(code)
      exited = true
      out.exit_code = code
    end,
  })
  if not client_id then
    error('vim.lsp.start_client failed')
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  wait('initialize', function()
    return client.initialized
  end)
  out.server_name = client.name
  out.incremental_sync = client.server_capabilities.textDocumentSync.change
  step('initialized')

  wait('diagnostics', function()
    return #vim.diagnostic.get(bufnr) > 0
  end)
  out.diagnostics = diagnostics(bufnr)
  step('diagnostics')

  local uri = vim.uri_from_bufnr(bufnr)
  local hover = request(bufnr, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 53, character = 8 } })
  out.hover = { kind = hover.contents.kind, value = hover.contents.value, range = hover.range }
  step('hover')

  local items = request(bufnr, 'textDocument/completion', { textDocument = { uri = uri }, position = { line = 53, character = 2 } })
  out.completion = {}
  for _, item in ipairs(items.items or items) do
    table.insert(out.completion, item.label)
  end
  table.sort(out.completion)
  step('completion')

  local lenses = request(bufnr, 'textDocument/codeLens', { textDocument = { uri = uri } })
  out.codelens = {}
  for _, l in ipairs(lenses) do
    table.insert(out.codelens, { line = l.range.start.line, title = l.command.title })
  end
  local symbols = request(bufnr, 'textDocument/documentSymbol', { textDocument = { uri = uri } })
  out.symbols = {}
  for _, s in ipairs(symbols) do
    table.insert(out.symbols, s.name)
  end
  local analysis = request(bufnr, 'recipeLens/analysis', { textDocument = { uri = uri } })
  out.analysis = { format = analysis.format, version = analysis.version, status = analysis.status.text }
  step('lens, symbols, analysis')

  -- The quick fix of the RL-R3 diagnostic, as Neovim asks for it (the line's diagnostics in LSP form).
  local line_diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, 53)
  local r3
  for _, d in ipairs(line_diagnostics) do
    if d.code == 'RL-R3' then
      r3 = d
    end
  end
  if not r3 then
    error('no RL-R3 diagnostic on line 54')
  end
  local actions = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = r3.range,
    context = { diagnostics = { r3 } },
  })
  out.code_actions = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(out.code_actions, a.title)
    if a.title == 'Set model.context_parallel_size: 4' then
      chosen = a
    end
  end
  if not chosen then
    error('the quick fix "Set model.context_parallel_size: 4" was not offered')
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or 'utf-16')
  out.line_after_fix = vim.api.nvim_buf_get_lines(bufnr, 53, 54, true)[1]
  step('code action applied')

  wait('the diagnostics to clear', function()
    return #vim.diagnostic.get(bufnr) == 0
  end)
  out.diagnostics_after_fix = diagnostics(bufnr)
  local after = request(bufnr, 'recipeLens/analysis', { textDocument = { uri = uri } })
  out.version_after_fix = after.version
  step('diagnostics cleared')

  vim.lsp.stop_client(client_id)
  wait('the server to exit', function()
    return exited
  end)
  step('stopped')
end

local ok, err = pcall(run)
out.ok = ok
if not ok then
  out.error = tostring(err)
end
vim.fn.writefile({ vim.fn.json_encode(out) }, out_path)
vim.cmd('qa!')
