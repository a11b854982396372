-- Write a CSV
local out = io.open("results.csv", "w")
out:write("id,name,total\n")
for _, row in ipairs(data) do
    out:write(row.id .. "," .. row.name .. "," .. row.total .. "\n")
end
out:close()

-- Read it back and process
local f = io.open("results.csv", "r")
local content = f:read("*a")
f:close()

-- Line-by-line iteration
for line in io.lines("results.csv") do
    print(line)
end

-- List directory contents
local files = io.list(".")
for _, name in ipairs(files) do
    print(name)
end

-- Clean up temp files
os.remove("temp.txt")
