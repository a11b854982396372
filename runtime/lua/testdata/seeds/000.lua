-- Fetch large dataset and save as CSV for Python analysis
local data = sdk.list_transactions({ limit = 10000 })

local csv = "id,date,amount,category\n"
for _, tx in ipairs(data.items) do
    csv = csv .. string.format("%s,%s,%.2f,%s\n", tx.id, tx.date, tx.amount, tx.category)
end

file.save("transactions.csv", csv)

-- Also save a JSON summary
local summary = {
    total = #data.items,
    sum = 0,
}
for _, tx in ipairs(data.items) do
    summary.sum = summary.sum + tx.amount
end
file.save("summary.json", json.encode(summary))

return summary
