package lua

// The tests run the same cases in Lua and in JavaScript.
import _ "convfiles/runtime/js"
