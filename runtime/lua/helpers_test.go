package lua
