module mcp-sim.local/integrations/go

go 1.22
